package dev.hicachesync.sim.bugs;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The sidecar pool ({@code controller.SidecarPool}) in seeded runs: with the fix it holds, and each of its faults
 * breaks the invariant the spec's model of it breaks (the replays pin the same on the spec's schedules).
 */
class SidecarPoolTest {

  private static SimConfig.Builder cp2(long seed, PrefetchPolicy policy, Set<Fault> faults) {
    return BugRuns.base(seed).steps(600).topology(Topology.of(1, 2, 1, 1)).version(ProtocolVersion.POST20460)
        .storage(StorageMode.MEMORY).prefetchPolicy(policy).readFailure(0.2).faults(faults);
  }

  /** Past the steps where each fault below first bites (storage hits from step 270 or so, seed 11). */
  @Test
  void theFixedPoolHoldsUnderEveryPolicy() {
    for (PrefetchPolicy p : PrefetchPolicy.values()) {
      SimResult r = BugRuns.run(cp2(11, p, EnumSet.of(Fault.SIDECAR_POOL)).steps(400));
      assertNull(r.divergence(), () -> p + ": " + r.divergence().describe());
    }
  }

  @Test
  void aRankWithoutThePoolSendsAShorterS5() {
    SimResult r = BugRuns.run(cp2(11, PrefetchPolicy.WAIT_COMPLETE,
        EnumSet.of(Fault.SIDECAR_POOL, Fault.LOCAL_EXTRA_POOLS)));
    assertNotNull(r.divergence(), "no divergence");
    assertTrue(r.divergence().invariants().contains(Invariant.CollectiveMatching), r.divergence()::describe);
  }

  @Test
  void s5OverTheKvCountAloneInsertsPagesWithoutTheirSidecar() {
    SimResult r = BugRuns.run(cp2(11, PrefetchPolicy.WAIT_COMPLETE, EnumSet.of(Fault.SIDECAR_MIN_KV_ONLY)));
    assertNotNull(r.divergence(), "no divergence");
    assertTrue(r.divergence().invariants().contains(Invariant.SidecarCoverage), r.divergence()::describe);
  }

  @Test
  void s5CountingSidecarSuccessesBySumInsertsPagesWithoutTheirSidecar() {
    SimResult r = BugRuns.run(cp2(11, PrefetchPolicy.WAIT_COMPLETE, EnumSet.of(Fault.SIDECAR_SUM_COUNT))
        .pageSize(16));
    assertNotNull(r.divergence(), "no divergence");
    assertTrue(r.divergence().invariants().contains(Invariant.SidecarCoverage), r.divergence()::describe);
  }

  @Test
  void bestEffortReturningEarlyOnAPendingSidecarLeavesThePeersInS5() {
    // the peers wait in S5 until the collective's timeout: a short one, since the mismatch is the expected outcome
    SimResult r = BugRuns.run(cp2(11, PrefetchPolicy.BEST_EFFORT, EnumSet.of(Fault.SIDECAR_EARLY_RETURN))
        .collectiveTimeout(Duration.ofMillis(300)));
    assertNotNull(r.divergence(), "no divergence");
    assertTrue(r.divergence().invariants().contains(Invariant.CollectiveMatching), r.divergence()::describe);
  }

  @Test
  void theSidecarPoolIsRefusedInVersionUnified() {
    assertThrows(IllegalArgumentException.class, () -> cp2(1, PrefetchPolicy.WAIT_COMPLETE,
        EnumSet.of(Fault.SIDECAR_POOL)).version(ProtocolVersion.UNIFIED).build());
  }
}
