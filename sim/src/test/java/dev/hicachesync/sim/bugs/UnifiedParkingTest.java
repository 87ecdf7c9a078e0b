package dev.hicachesync.sim.bugs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sync.Invariant;
import java.util.EnumSet;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.testing.QtRuns;
import dev.hicachesync.topology.Topology;
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
    assertTrue(r.stats().prefetchesParked() > 0, "no hit was parked: " + r.stats().describe());
    assertTrue(r.stats().parkedHitsGranted() > 0, "no parked hit was granted later: " + r.stats().describe());
    assertTrue(r.stats().storageHitTokens() > 0, r.stats()::describe);
  }

  /** The same run in cache mode (the default) revokes instead: nothing is parked, and it revokes more. */
  @Test
  void cacheModeRevokesWhatBufferOnlyParks() {
    SimResult cache = BugRuns.run(config(false));
    SimResult buffer = BugRuns.run(config(true));
    assertNull(cache.divergence(), () -> cache.divergence().describe());
    assertEquals(0, cache.stats().prefetchesParked());
    assertTrue(cache.stats().prefetchesRevoked() > buffer.stats().prefetchesRevoked(),
        () -> "cache " + cache.stats().prefetchesRevoked() + " revokes, buffer-only " + buffer.stats().prefetchesRevoked());
  }

  /**
   * Over generated runs (seed, host pool, CP x TP, {@code timeout} or {@code best_effort}), buffer-only host
   * memory never makes the ranks disagree and every run drains quiet. {@code wait_complete} is left out on
   * purpose: this implementation's prefetches keep cache mode's host protection of their anchor, so parked
   * {@code wait_complete} hits can pin the pages they wait for (docs/explanation/unified.md); SGLang's buffer mode pins none.
   * A failure prints the run's seed and sizes (QuickTheories' falsifying example).
   */
  @Test
  void bufferOnlyNeverDivergesAndDrains() {
    long[] parked = {0, 0}; // hits parked, parked hits granted, over every example: not vacuous
    QtRuns.qt().withExamples(Math.min(QtRuns.EXAMPLES, 12)).forAll(
        longs().between(1, 1_000_000), integers().between(16, 96), integers().between(0, 2),
        booleans().all()).checkAssert((seed, host, grid, bestEffort) -> {
          Topology t = grid == 0 ? Topology.of(1, 2, 1, 1) : grid == 1 ? Topology.of(1, 1, 2, 1) : Topology.of(1, 2, 2, 1);
          SimResult r = BugRuns.run(BugRuns.base(seed).steps(600).topology(t).version(ProtocolVersion.UNIFIED)
              .prefetchPolicy(bestEffort ? PrefetchPolicy.BEST_EFFORT : PrefetchPolicy.TIMEOUT).hostPages(host)
              .drainSteps(300).hostBufferOnly(true));
          String where = "seed " + seed + ", host " + host + ", " + t + (bestEffort ? ", best_effort" : ", timeout");
          assertNull(r.divergence(), () -> where + ": " + r.divergence().describe());
          assertTrue(r.quiescence().isEmpty(), () -> where + ": " + String.join("\n", r.quiescence()));
          parked[0] += r.stats().prefetchesParked();
          parked[1] += r.stats().parkedHitsGranted();
        });
    // Grants are rarer in 600-step runs (17 parked, none granted with the default seed): the seeded test
    // above asserts them; here the park path must at least be taken.
    assertTrue(parked[0] > 0, "parked " + parked[0] + ", granted later " + parked[1]);
  }

  /**
   * Write staging (fault {@code buffer_write_staging}, HiCacheUnified.tla's {@code BufFlush}): each admitted node's
   * backup goes through a staging page freed at the synced drain of its ack; nothing diverges and every staging
   * page is back after the drain. Bug {@code STAGE_LOCAL} (fault {@code staging_freed_on_backup_thread}): the backup
   * thread frees each page when its write lands, at its rank's own time, and the ranks' pools part
   * ({@code AllocAgreement}, {@code unified_buffer_stage_local}).
   */
  @Test
  void writeStagingFreedAtTheSyncedDrainHoldsAndFreedOnTheBackupThreadPartsThePools() {
    SimResult staged = BugRuns.run(config(true).faults(EnumSet.of(Fault.BUFFER_WRITE_STAGING)));
    assertNull(staged.divergence(), () -> staged.divergence().describe());
    assertTrue(staged.quiescence().isEmpty(), () -> String.join("\n", staged.quiescence()));
    SimResult local = BugRuns.run(config(true).faults(EnumSet.of(Fault.STAGING_FREED_ON_BACKUP_THREAD)));
    assertTrue(local.divergence() != null && local.divergence().invariant() == Invariant.AllocAgreement,
        () -> local.divergence() == null ? "the bug went unnoticed" : local.divergence().describe());
  }

  /** Buffer-only host memory is a path of {@code unified} only: another version is refused with one line. */
  @Test
  void bufferOnlyNeedsUnified() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> BugRuns.base(7).version(ProtocolVersion.MERGED).hostBufferOnly(true).build());
    assertTrue(e.getMessage().contains("version unified"), e.getMessage());
  }
}
