package dev.hicachesync.sim;

import dev.hicachesync.sim.datapath.DataOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.tier.HostLayout;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A bounded L3 (each rank's own LRU shard) in the synthetic simulation: eviction is active and pages are
 * still read back, the default protocol still agrees, a seed replays exactly, and the legacy version
 * still diverges on CP.
 */
class BoundedStorageSimTest {
  /** Below the synthetic working set, so the shards evict, yet big enough that prefetches still hit. */
  private static final long SHARD_PAGES = 300;

  private static SimConfig.Builder base() {
    return SimConfig.builder().topology(Topology.of(1, 2, 2, 1)).steps(2500).seed(11)
        .storagePages(SHARD_PAGES).collectiveTimeout(Duration.ofSeconds(5));
  }

  @Test
  void theSameSeedTwiceGivesTheSameRunWhileShardsEvict() {
    // Bytes move and are checked on arrival, so a page read back from a shard must be the right one.
    SimConfig cfg = base().data(DataOptions.on(HostLayout.PAGE_FIRST, 2, 64)).drainSteps(400).build();
    SimResult a = new Simulator(cfg).run();
    SimResult b = new Simulator(cfg).run();
    assertNull(a.divergence(), () -> a.divergence().describe());
    assertTrue(a.ok(), () -> "not quiet: " + a.quiescence());
    assertTrue(a.stats().storageEvictedPages() > 0, "the shards must evict for this test to mean anything");
    assertTrue(a.stats().storageReadPages() > 0, "and still serve prefetches");
    assertEquals(SHARD_PAGES, a.stats().storageCapacityPages());
    assertEquals(a.stats().describe(), b.stats().describe());
    assertEquals(a.stats().storageEvictedPages(), b.stats().storageEvictedPages());
    assertEquals(a.finalDigests(), b.finalDigests());
  }

  @Test
  void theLegacyVersionStillDivergesOnCp() {
    SimResult r = new Simulator(base().topology(Topology.of(1, 2, 1, 1)).version(ProtocolVersion.PRE20460)
        .build()).run();
    assertNotNull(r.divergence(), "pre20460 on CP must diverge with a bounded L3 too");
  }

  @Test
  void aCapacityWithoutStorageOrWithPipelineStagesIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> base().storage(StorageMode.OFF).build());
    assertThrows(IllegalArgumentException.class, () -> base().topology(Topology.of(1, 1, 2, 2)).build());
    assertThrows(IllegalArgumentException.class, () -> base().storagePages(-1).build());
  }
}
