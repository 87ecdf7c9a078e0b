package dev.hicachesync.sim.bugs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sync.ProtocolVersion;
import org.junit.jupiter.api.Test;

/**
 * Buffer-only host memory (#34798, {@code --hicache-host-memory-mode buffer_only}) in version {@code unified}:
 * a storage hit whose host slots the hit drain cannot allocate is parked ({@code pending_hit_allocs}) and
 * retried first at every later drain, instead of revoked (HiCacheUnified.tla Knob {@code buffer_only},
 * {@code BufRetry}; {@code unified_buffer_park} holds). The park decision reads only the pool, which changes
 * on the scheduler at synced points, so every rank parks and grants the same hits: the simulator's
 * PrefetchAgreement (each park and grant is mixed into the prefetch digest) must stay quiet. CP 2 x TP 2,
 * {@code timeout}, a 64-page host pool (small enough that hits park), seed pinned.
 */
class UnifiedParkingTest {

  private static SimConfig.Builder config(boolean bufferOnly) {
    return BugRuns.base(7).version(ProtocolVersion.UNIFIED).prefetchPolicy(PrefetchPolicy.TIMEOUT).hostPages(64)
        .drainSteps(300).hostBufferOnly(bufferOnly);
  }

  /**
   * Hits park when the pool is short, some are granted at a later drain and read from storage, nothing
   * diverges, and after the drain every rank is quiet (no parked prefetch left behind, no slot leaked).
   */
  @Test
  void bufferOnlyParksHitsAndGrantsThemLater() {
    SimResult r = BugRuns.run(config(true));
    assertNull(r.divergence(), () -> r.divergence().describe());
    assertTrue(r.quiescence().isEmpty(), () -> String.join("\n", r.quiescence()));
    assertTrue(r.stats().prefetchesParked > 0, "no hit was parked: " + r.stats().describe());
    assertTrue(r.stats().parkedHitsGranted > 0, "no parked hit was granted later: " + r.stats().describe());
    assertTrue(r.stats().storageHitTokens > 0, r.stats()::describe);
  }

  /** The same run in cache mode (the default) revokes instead: nothing is parked, and it revokes more. */
  @Test
  void cacheModeRevokesWhatBufferOnlyParks() {
    SimResult cache = BugRuns.run(config(false));
    SimResult buffer = BugRuns.run(config(true));
    assertNull(cache.divergence(), () -> cache.divergence().describe());
    assertEquals(0, cache.stats().prefetchesParked);
    assertTrue(cache.stats().prefetchesRevoked > buffer.stats().prefetchesRevoked,
        () -> "cache " + cache.stats().prefetchesRevoked + " revokes, buffer-only " + buffer.stats().prefetchesRevoked);
  }

  /** Buffer-only host memory is a path of {@code unified} only: another version is refused with one line. */
  @Test
  void bufferOnlyNeedsUnified() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> BugRuns.base(7).version(ProtocolVersion.MERGED).hostBufferOnly(true).build());
    assertTrue(e.getMessage().contains("version unified"), e.getMessage());
  }
}
