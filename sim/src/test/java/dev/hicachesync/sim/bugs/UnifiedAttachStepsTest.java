package dev.hicachesync.sim.bugs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.ProtocolVersion;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/**
 * The runtime attach step by step ({@code attach_storage_backend}; HiCacheUnified.tla Knob {@code attach_steps}):
 * the odd ranks' backends fail at the attach of {@link Fault#ATTACH_STEP}. ATT_EARLY's failed ranks skip the group
 * creation (their peers wait in GROUPS); a raise in {@code register_mem_host_pool_v2} with the partial rollback
 * leaves those ranks half attached (AttachStateConsistent); the full rollback with a retry attaches at the next
 * step (backups follow), without the retry storage stays off. CP 2 x TP 2, {@code timeout}, memory storage, seed pinned.
 */
class UnifiedAttachStepsTest {

  private static SimResult run(long drain, Fault... faults) {
    EnumSet<Fault> f = EnumSet.of(Fault.ATTACH_STEPS, faults);
    // 60 steps: the attach at step 20, the retry at 21, then storage hits
    return BugRuns.run(BugRuns.base(7).steps(60).version(ProtocolVersion.UNIFIED)
        .prefetchPolicy(PrefetchPolicy.TIMEOUT).drainSteps(drain).faults(f));
  }

  @Test
  void aFailedBackendThatSkipsTheGroupCreationLeavesItsPeersInGroups() {
    SimResult r = run(0, Fault.ATTACH_FAILS_LOCALLY, Fault.ATTACH_FAILS_BEFORE_GROUPS);
    assertNotNull(r.divergence(), "the skipped group creation went unnoticed");
    assertEquals(Invariant.CollectiveMatching, r.divergence().invariant(), r.divergence()::describe);
    assertEquals(Fault.ATTACH_STEP, r.divergence().step(), r.divergence()::describe);
    assertTrue(r.divergence().describe().contains("GROUPS"), r.divergence()::describe);
  }

  @Test
  void aPartialRollbackLeavesTheFailedRanksHalfAttached() {
    SimResult r = run(0, Fault.ATTACH_AGREED, Fault.ATTACH_REGISTER_V2_RAISES, Fault.ATTACH_PARTIAL_ROLLBACK);
    assertNotNull(r.divergence(), "the half-attached controller went unnoticed");
    assertEquals(Invariant.AttachStateConsistent, r.divergence().invariant(), r.divergence()::describe);
    assertEquals(Fault.ATTACH_STEP, r.divergence().step(), r.divergence()::describe);
  }

  @Test
  void theFullRollbackWithARetryAttachesAtTheNextStepAndWithoutItStorageStaysOff() {
    SimResult r = run(100, Fault.ATTACH_AGREED, Fault.ATTACH_REGISTER_V2_RAISES, Fault.ATTACH_RETRY);
    assertNull(r.divergence(), () -> r.divergence().describe());
    assertTrue(r.quiescence().isEmpty(), () -> String.join("\n", r.quiescence()));
    assertTrue(r.stats().storageWritePages() > 0, r.stats()::describe);

    SimResult once = run(100, Fault.ATTACH_AGREED, Fault.ATTACH_REGISTER_V2_RAISES);
    assertNull(once.divergence(), () -> once.divergence().describe());
    assertEquals(0, once.stats().storageWritePages(), once.stats()::describe);
  }
}
