package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code check --replay} of the unified pipeline models ({@code HiCacheUnifiedPipeline}, PP &gt; 1) on the Java
 * {@code unified} controller with its stages ({@link UnifiedPipelineReplay}): each stage's prefetch thread passes
 * where the spec's query is, finds the spec's hits and queues each outcome where the spec's {@code PfPutHit} is;
 * the drain bug reproduces, its fix runs the same schedule clean; a knob the implementation has no path for
 * is not replayable, naming it. Every row of this module in
 * the committed table ({@code docs/reference/replays.md}) has its outcome.
 */
class UnifiedPipelineReplayTest {

  /** The table's module names this class checks (the other modules: {@link JavaReplayTest}, {@link UnifiedReplayTest}). */
  static final Set<String> MODULES = Set.of("HiCacheUnifiedPipeline");

  static CatalogueReplays replays;

  @BeforeAll
  static void load() throws Exception {
    replays = ReplayTable.replays();
  }

  @TestFactory
  Stream<DynamicTest> everyUnifiedPipelineReplayHasItsCommittedOutcome() {
    return ReplayTable.rows().stream().filter(r -> MODULES.contains(r.module()))
        .map(row -> DynamicTest.dynamicTest(row.model() + ": " + row.outcome(), () -> ReplayTable.check(replays, row)));
  }

  /**
   * Finding F2 (bug NOWAIT): both stages' prefetch threads query (hit 0) before step 1's event check; stage 0's
   * outcome reaches its scheduler at once, stage 1's only after the trace, so stage 1 drains stage 0's forwarded
   * hit count cut to nothing (get_nowait) and its prefetch stays on while stage 0 revokes it and admits: the
   * stages' trees part at step 1. The fix (the blocking drain) waits for stage 1's own outcome: clean.
   */
  @Test
  void theNowaitDrainPartsTheStagesTreesAndTheBlockingDrainRunsClean() throws Exception {
    ReplayReport bug = replays.replay("unipp_forwarded_nowait");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("violates TreeAgreement") && bug.spec().endsWith("step 1"), bug.spec());
    assertTrue(bug.impl().contains("TreeAgreement at step"), bug.impl());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("rank 1 (stage 1) prefetch thread passes before the event"
        + " check of step 1") && l.contains("queued after the trace")), bug.steps().toString());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("rank 0 (stage 0)") && l.contains("queued at once")),
        bug.steps().toString());

    ReplayReport twin = replays.replay("unipp_forwarded_blocking");
    System.out.print(twin.render());
    assertEquals(ReplayReport.Outcome.CLEAN, twin.outcome(), twin.render());
    assertEquals("unipp_forwarded_nowait", twin.schedule());
    assertEquals(bug.steps().subList(0, 2), twin.steps().subList(0, 2), "the same schedule, with the fix");
  }

  /**
   * Knob pf_shared_group with CP 2 on two stages: a stage-0 rank's prefetch thread queries before its own event
   * check, on the scheduler's group object, while its stage peer posts S123 there: the two calls meet
   * (CollectiveMatching) at step 0.
   */
  @Test
  void thePrefetchThreadOnAStagesSchedulerGroupMeetsItsPeersS123() throws Exception {
    ReplayReport bug = replays.replay("unipp_pf_shared_group");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("violates CollectiveMatching") && bug.spec().endsWith("step 0"), bug.spec());
    assertTrue(bug.impl().startsWith("CollectiveMatching at step 0"), bug.impl());
    assertTrue(bug.steps().stream().anyMatch(l -> l.startsWith("implementation: ") && l.contains("at S123")
        && l.contains("at S7") && !l.contains("timeout")), "the two calls met on one group: " + bug.steps());
  }

  /**
   * Drain stage_local (each stage drains by its own MIN): stage 1's prefetch thread passes S7 in step 0, stage
   * 0's in step 1 (round 1 of the pp group in two steps, which stages not in lockstep allow); the domain checker
   * matches S7 across the stages by round, not by step, and finds the spec's TreeAgreement at step 0 (the
   * mutant that compares S7 by step reports CollectiveMatching there instead).
   */
  @Test
  void aStageLocalDrainPartsTheTreesWhileTheStagesS7FallInDifferentSteps() throws Exception {
    for (String model : List.of("unipp_stage_local_drain", "unipp_linker_stage_local")) {
      ReplayReport bug = replays.replay(model);
      assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
      assertTrue(bug.spec().startsWith("violates TreeAgreement") && bug.spec().endsWith("step 0"), bug.spec());
      assertTrue(bug.impl().contains("TreeAgreement at step 0") && !bug.impl().contains("CollectiveMatching"),
          bug.impl());
      assertTrue(bug.steps().stream().anyMatch(l -> l.startsWith("S7 round 1: step 1 on rank 0, step 0 on rank 1")),
          bug.steps().toString());
    }
  }

  /**
   * ConsensusMonitorPipeline over this driver: the monitor watches the NOWAIT schedule's run and raises the spec's
   * NoConsensusAlarm at its step (stage 0's check_prefetch_progress True, stage 1's False); the blocking drain on
   * the same schedule raises nothing.
   */
  @Test
  void theMonitorRidesOnThePipelineReplayAndAlarmsAtTheSpecsStep() throws Exception {
    ReplayReport bug = replays.replay("monitor_unipp_forwarded_nowait");
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.impl().startsWith("NoConsensusAlarm at step 1"), bug.impl());
    ReplayReport twin = replays.replay("monitor_unipp_forwarded_blocking");
    assertEquals(ReplayReport.Outcome.CLEAN, twin.outcome(), twin.render());
  }

  /**
   * Knob s7_stage_mask (fault s7_stage_mask, seam PfQueryStageMask): stage 0's S7 mask one element longer than
   * stage 1's on the pp group; the spec's queries after step 0's RECV are the threads' passes at the start of
   * step 1, where the collective's size check fails (CollectiveMatching).
   */
  @Test
  void aStageLongerS7MaskBreaksThePpGroupsCall() throws Exception {
    ReplayReport bug = replays.replay("unipp_s7_stage_mask");
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.impl().startsWith("CollectiveMatching at step 1"), bug.impl());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("at S7 len 2") && l.contains("at S7 len 1")),
        bug.steps().toString());
  }

  /**
   * Knob own_hit over stage 0's prefetch tickets (#36700): stage 0's S7 finds nothing, stage 1's ticket worker takes
   * its own hit of one page instead of the ticket's. The implementation names the different hits at S7's lockstep
   * point (PrefetchAgreement, step 0: the spec's step-0 log breaks it too, beside TreeAgreement, TLC's first in the
   * cfg's order) or the trees at the next S123's digest conjunct (TreeAgreement), whichever of its threads is first.
   */
  @Test
  void aTicketWorkerTakingItsOwnHitPartsThePrefetchDecisionsAtStepZero() throws Exception {
    ReplayReport r = replays.replay("unipp_tickets_own_hit");
    System.out.print(r.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, r.outcome(), r.render());
    assertTrue(r.spec().startsWith("violates TreeAgreement") && r.spec().endsWith("step 0"), r.spec());
    // Which the implementation names first is a race of its threads: the hits at S7's lockstep point (step 0), or
    // the trees at step 1's S123 digest conjunct (the trees step 0 ended with); both are the spec's violation.
    // (or, when the domain checker compares the stages first, at step 0's S123, where the differing hits show too).
    assertTrue(r.impl().startsWith("PrefetchAgreement at step 0, sync point S7")
        || r.impl().startsWith("PrefetchAgreement, AllocAgreement, TreeAgreement at step 0, sync point S123")
        || r.impl().startsWith("TreeAgreement at step 1"), r.impl());
    assertTrue(r.steps().stream().anyMatch(l -> l.startsWith("schedule rank 1 (stage 1)") && l.contains("hits at S7 [1]")),
        r.steps().toString());
  }

  /**
   * Bug TKLOCAL over the tickets: stage 0's read fails, stage 1's reads the ticket's page, and each stage's
   * completion MIN spans the stage only: the prefetches of the two stages differ from step 1 (PrefetchAgreement),
   * which the domain checker names right after RECV 2 (the run compares each step at the next RECV, {@code
   * Timing.comparesStepAtNextRecv}), before stage 1's event check of step 2 can name the trees that follow from it;
   * the fix (the completion MIN over the pp group, {@code unipp_tickets}) runs the bug's schedule clean: both stages
   * fall back together.
   */
  @Test
  void aStageLocalCompletionMinBreaksPrefetchAgreementAndThePpWideMinRunsClean() throws Exception {
    ReplayReport bug = replays.replay("unipp_tickets_stage_completion");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.impl().startsWith("PrefetchAgreement") && bug.impl().contains(" at step 1, sync point S123"),
        bug.impl());

    ReplayReport twin = replays.replay("unipp_tickets");
    System.out.print(twin.render());
    assertEquals(ReplayReport.Outcome.CLEAN, twin.outcome(), twin.render());
    assertEquals("unipp_tickets_stage_completion", twin.schedule());
    assertTrue(twin.steps().contains("schedule rank 0 reads: fails, completion MIN before the event check of step 1"
        + " (each read lands at once)"), twin.steps().toString());
  }
}
