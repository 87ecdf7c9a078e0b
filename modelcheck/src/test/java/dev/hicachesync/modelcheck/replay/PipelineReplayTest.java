package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code check --replay} of {@code HiCachePipeline} models ({@link PipelineReplay}): the seams a reproduced bug
 * needs are the ones its counterexample chooses through (each rank's GPU copies, its LRU clock, the stage-local
 * sync, the world collective, a later stage's pool, the host-only load check) and its fixed twin runs the same
 * schedule clean. Every pipeline row's outcome is asserted with the others' by {@link JavaReplayTest}.
 */
class PipelineReplayTest {

  static CatalogueReplays replays;

  @BeforeAll
  static void load() throws Exception {
    replays = ReplayTable.replays();
  }

  /**
   * B6: key 1's write-through is done on stage 1 at step 2's event check and not on stage 0; with each stage
   * deciding alone (fault pp_stage_local_sync) stage 1 pops it, unlocks key 1 and evicts it for key 2, stage 0
   * waits: TreeAgreement at step 2. With the fix (stage 0 forwards its count) the same copies run clean.
   */
  @Test
  void aWriteDoneOnOneStageOnlySplitsTheTreesWithoutTheForwardedCount() throws Exception {
    ReplayReport bug = replays.replay("b6_stage_local");
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("violates TreeAgreement") && bug.spec().endsWith("step 2"), bug.spec());
    assertTrue(bug.impl().startsWith("AckAgreement, TreeAgreement at step 2, sync point S1"), bug.impl());
    assertTrue(bug.steps().contains("faults: pp_stage_local_sync"), bug.steps().toString());
    assertTrue(bug.steps().contains("schedule rank 0 write copies: [issued in step 1, not done in the trace]"),
        bug.steps().toString());
    assertTrue(bug.steps().contains("schedule rank 1 write copies: [issued in step 1, done from step 2]"),
        bug.steps().toString());
    assertTrue(bug.steps().stream().anyMatch(l -> l.startsWith("step 2 RECV rank 1: spec") && !l.contains("differs")),
        "the states at RECV are compared and equal: " + bug.steps());

    ReplayReport twin = replays.replay("b6_fixed");
    assertEquals(ReplayReport.Outcome.CLEAN, twin.outcome(), twin.render());
    assertEquals("b6_stage_local", twin.schedule());
    assertTrue(twin.steps().contains("schedule rank 1 write copies: [issued in step 1, done from step 2]"),
        "the same schedule: " + twin.steps());
  }

  /**
   * Knob host_only (#28269): loading_check skips its MIN and the forward; each stage pops its own ready load
   * acks (fault unsynced_loading_check), so key 1's load-back done on one stage only splits the trees at S2.
   */
  @Test
  void theHostOnlyLoadCheckPopsEachStagesOwnLoads() throws Exception {
    ReplayReport bug = replays.replay("pp_host_only_28269");
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.impl().contains("TreeAgreement at step 5, sync point S2"), bug.impl());
    assertTrue(bug.steps().contains("faults: unsynced_loading_check"), bug.steps().toString());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("load copies: [issued in step")), bug.steps().toString());
  }

  /** Knob local_clock: the rank's clock is skewed from the step after the spec's ClockSkews (Timing.lruClockSkewed). */
  @Test
  void aSkewedClockOnOneStageEvictsAnotherKey() throws Exception {
    ReplayReport bug = replays.replay("pp_knob_local_clock");
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.steps().stream().anyMatch(l -> l.matches("schedule rank \\d LRU clock skewed from step \\d")),
        bug.steps().toString());
    assertTrue(bug.impl().contains("TreeAgreement at step 5"), bug.impl());
  }

  /** Knob local_pool_sizes: stage 1 keeps key 1 on its larger device pool (fault larger_device_pool_on_later_stages). */
  @Test
  void aLaterStagesOwnPoolKeepsWhatStageZeroEvicts() throws Exception {
    ReplayReport bug = replays.replay("pp_knob_local_pool_sizes");
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.steps().contains("faults: larger_device_pool_on_later_stages"), bug.steps().toString());
    assertTrue(bug.impl().startsWith("AllocAgreement, TreeAgreement at step 1"), bug.impl());
  }

  /**
   * B19: the batched world collective (fault pp_world_allreduce) on the scheduler thread while stage 1 waits for
   * stage 0's step: the spec's deadlock is the implementation's circular wait, stage 0 in the world all_reduce and
   * stage 1 in its pipeline receive, reported by the collective's timeout (CollectiveMatching). Its fixed twin
   * forwards the counts and runs the same (two-state) schedule clean.
   */
  @Test
  void theWorldCollectiveWaitsForAStageThatWaitsForStageZeroAndItsFixRunsClean() throws Exception {
    ReplayReport bug = replays.replay("b19_world_collective");
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("deadlock") && bug.impl().startsWith("CollectiveMatching at step 0"), bug.render());
    // Rank 0 waits in the world collective, rank 1 in its pipe receive, with one timeout each; whichever fires
    // second finds the other's wait on the board, marked timed out (WaitBoard).
    assertTrue(bug.steps().stream().anyMatch(l -> l.startsWith("implementation: ") && l.contains("world[0,1] at S123")
        && l.contains("pp[0->1] recv")), "the circular wait: " + bug.steps());
    ReplayReport twin = replays.replay("b19_fixed");
    assertEquals(ReplayReport.Outcome.CLEAN, twin.outcome(), twin.render());
  }
}
