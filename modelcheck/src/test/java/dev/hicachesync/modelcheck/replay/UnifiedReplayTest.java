package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code check --replay} of {@code HiCacheUnified} models on the Java {@code unified} controller ({@link
 * UnifiedReplay}): each reproduced bug reaches the spec's violation at the spec's step with the rank-local
 * choices the counterexample makes (the attach's outcome per rank, a waiting-queue abort, the prefetch thread's
 * passes, hits and outcome arrivals, reads, the batch-full test), its fixed twin runs the same schedule clean,
 * and a bug whose action has no seam is not replayable, the reason naming its knob and action. Every unified row
 * of the committed table ({@code docs/reference/replays.md}) has its outcome.
 */
class UnifiedReplayTest {

  static CatalogueReplays replays;

  @BeforeAll
  static void load() throws Exception {
    replays = ReplayTable.replays();
  }

  @TestFactory
  Stream<DynamicTest> everyUnifiedReplayHasItsCommittedOutcome() {
    return ReplayTable.rows().stream().filter(r -> r.module().equals("HiCacheUnified"))
        .map(row -> DynamicTest.dynamicTest(row.model() + ": " + row.outcome(), () -> ReplayTable.check(replays, row)));
  }

  @Test
  void theAttachBugReplaysToTheSameViolationAndItsFixedTwinRunsClean() throws Exception {
    assertTrue(replays.unifiedBugModels().stream().anyMatch(m -> m.name().equals("unified_attach_local_outcome")),
        "a ci-tier unified bug model");
    ReplayReport bug = replays.replay("unified_attach_local_outcome");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("violates CollectiveMatching") && bug.spec().endsWith("step 0"), bug.spec());
    assertTrue(bug.impl().startsWith("CollectiveMatching at step 0"), bug.impl());
    assertTrue(bug.steps().get(0).contains("fails on rank(s) ["), bug.steps().toString());

    ReplayReport twin = replays.replay("unified_attach_fixed");
    System.out.print(twin.render());
    assertEquals(ReplayReport.Outcome.CLEAN, twin.outcome(), twin.render());
    assertEquals("unified_attach_local_outcome", twin.schedule());
    assertEquals(bug.steps().get(0).replace("its own outcome (ATT)", "the agreed outcome (fixed)"),
        twin.steps().get(0), "the same schedule, with the fix");
  }

  /**
   * Bug WTO (#27221): rank 0's clock fires while the domain waits at RECV (EnvClock), so its SchedAbortCheck
   * aborts the waiting request and rank 1's does not; the trees differ at the next RECV (TreeAgreement). The
   * seam: the scheduler's aborts phase asks the run's timing ({@code Timing.abortsWaiting}) per rank. The fixed
   * twin takes the domain's first rank's decision on every rank (#37143) and runs clean.
   */
  @Test
  void theWaitingTimeoutBugAbortsOnOneRankOnlyAndItsFixedTwinRunsClean() throws Exception {
    ReplayReport bug = replays.replay("unified_wait_timeout_local_clock");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("violates TreeAgreement"), bug.spec());
    assertTrue(bug.impl().startsWith("TreeAgreement at step 0"), bug.impl());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("aborts waiting request 1 at step 0")), bug.steps().toString());

    ReplayReport twin = replays.replay("unified_wait_timeout_fixed");
    System.out.print(twin.render());
    assertEquals(ReplayReport.Outcome.CLEAN, twin.outcome(), twin.render());
    assertTrue(twin.steps().stream().anyMatch(l -> l.contains("first rank's decision on every rank")), twin.steps().toString());
  }

  /**
   * Bug B10 (#30760) in the unified admission: both ranks' prefetch threads query (hit 0) at the start of step 1,
   * rank 0's outcome reaches its scheduler at once and rank 1's only after step 1 (PfPutHit), so S123 drains
   * nothing; rank 0's rank-local batch-full test (EnvBatchFull) breaks its admission loop before S4 while rank 1
   * enters S4: CollectiveMatching (the spec's deadlock). Seams: the prefetch pass per step, the outcome's
   * latency to the scheduler, the batch-full test. The fixed twin (no early exit) runs clean.
   */
  @Test
  void theBatchFullExitSkipsS4OnOneRankAndItsFixedTwinRunsClean() throws Exception {
    ReplayReport bug = replays.replay("unified_b10_batch_full_exit");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("deadlock") || bug.spec().toLowerCase(java.util.Locale.ROOT).contains("deadlock"),
        bug.spec());
    assertTrue(bug.impl().startsWith("CollectiveMatching at step"), bug.impl());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("rank 0 batch full")), bug.steps().toString());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("rank 1 prefetch thread") && l.contains("at step 2's start")),
        bug.steps().toString());

    ReplayReport twin = replays.replay("unified_b10_fixed");
    System.out.print(twin.render());
    assertEquals(ReplayReport.Outcome.CLEAN, twin.outcome(), twin.render());
  }

  /**
   * Knob pf_shared_group: the prefetch thread reduces S7 on the scheduler's group objects. Rank 0 posts its S123
   * while rank 1's prefetch thread queries storage before rank 1's own event check (PfQuery mid-step): the two
   * calls pair up on the shared group (CollectiveMatching) at step 0. The seam: a prefetch pass right before
   * the event check ({@code Timing.prefetchPassBeforeEvents}) on the rank and step the spec's query names.
   */
  @Test
  void thePrefetchThreadOnTheSchedulersGroupMeetsItsPeersS123() throws Exception {
    ReplayReport bug = replays.replay("unified_pf_shared_group");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("violates CollectiveMatching") && bug.spec().endsWith("step 0"), bug.spec());
    assertTrue(bug.impl().startsWith("CollectiveMatching at step 0"), bug.impl());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("rank 1 prefetch thread") && l.contains(
        "before the event check of steps [0]")), bug.steps().toString());
    assertTrue(bug.steps().stream().anyMatch(l -> l.startsWith("implementation: ") && l.contains("at S123")
        && l.contains("at S7") && !l.contains("timeout")), "the two calls met on one group (not a timeout): " + bug.steps());
  }

  /**
   * Knob io_term (#36425's short-circuit with a rank-local terminate, fault local_terminate): both ranks hit one
   * page and start reading it at step 0's S123; rank 0 enters S4 before its read lands, rank 1's read fails
   * before its admission, so its {@code is_terminated()} short-circuit skips S4: the spec's deadlock,
   * CollectiveMatching in the implementation. Seams: the read's outcome and landing ({@code Timing.readFails},
   * {@code backgroundTicks}, {@code landsIoBeforeAdmission}).
   */
  @Test
  void aReadFailingOnOneRankBeforeItsAdmissionSkipsS4There() throws Exception {
    ReplayReport bug = replays.replay("unified_s4_short_circuit_io_term");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("deadlock"), bug.spec());
    assertTrue(bug.impl().startsWith("CollectiveMatching at step"), bug.impl());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("rank 1 storage reads: [fails before the admission of step 0]")),
        bug.steps().toString());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("rank 0 storage reads: [fails from step 1]")),
        bug.steps().toString());
  }

  /**
   * Knob sync_shared_group (fault shared_completion_groups): the completion-sync thread reduces on the
   * scheduler's group objects; at step 1 rank 0 posts S123 while rank 1's read fails and its completion sync
   * posts S5 before rank 1's own event check: the two calls pair up (CollectiveMatching) at step 1, a mismatch
   * of S123 and S5 on one group (with groups of its own the thread would only hang there, by the fabric's timeout).
   */
  @Test
  void theCompletionSyncOnTheSchedulersGroupMeetsItsPeersS123() throws Exception {
    ReplayReport bug = replays.replay("unified_sync_shared_group");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("violates CollectiveMatching") && bug.spec().endsWith("step 1"), bug.spec());
    assertTrue(bug.impl().startsWith("CollectiveMatching at step 1"), bug.impl());
    assertTrue(bug.steps().stream().anyMatch(l -> l.startsWith("implementation: ") && l.contains("at S123")
        && l.contains("at S5") && !l.contains("timeout")), "the two calls met on one group (not a timeout): " + bug.steps());
  }

  /**
   * Knob pd_decode with bug PDLB (#29483): each admitted request's prompt is on the rank's host tier (PD decode's
   * local restore, fault pd_decode_restore), so its admission loads it back; rank 1's load-back event is done by
   * step 1's event check (EnvLoadDone), rank 0's only later, so S123's load MIN pops nothing and rank 1's
   * is_load_back_event_done runs loading_check's MIN (S2) alone: the spec's deadlock, CollectiveMatching in the
   * implementation. The seam: the load-back copy's latency ({@code Timing.copyTicks}). The fixed twin (a pure
   * poll) runs the same schedule clean.
   */
  @Test
  void aLoadBackDoneOnOneRankRunsItsLoadingCheckAloneAndItsFixedTwinRunsClean() throws Exception {
    ReplayReport bug = replays.replay("unified_pd_decode_load_back");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("deadlock"), bug.spec());
    assertTrue(bug.impl().startsWith("CollectiveMatching at step"), bug.impl());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("rank 1 load-back events done by the event check of steps [1]")),
        bug.steps().toString());
    assertTrue(bug.steps().stream().anyMatch(l -> l.startsWith("implementation: ") && l.contains("at S2")),
        "rank 1's S2 met its peer's next call: " + bug.steps());

    ReplayReport twin = replays.replay("unified_pd_decode_fixed");
    System.out.print(twin.render());
    assertEquals(ReplayReport.Outcome.CLEAN, twin.outcome(), twin.render());
  }

  /**
   * The runtime attach step by step (Knob attach_steps): ATT_EARLY's failed rank skips the group creation and
   * meets its peer's GROUPS with its S123 (the spec's deadlock); ROLLBACK_PARTIAL leaves the rank that failed at
   * register_mem_host_pool_v2 half attached at the step's end (AttachStateConsistent); the liveness part of the
   * partial rollback (AttachEventuallySucceeds, a lasso) reproduces by {@link LassoJudgement}: the retried attach
   * fails at every step and the run's state at RECV repeats with the spec's cycle.
   */
  @Test
  void theStepByStepAttachBugsReplayThroughTheGroupCreationAndTheRollback() throws Exception {
    ReplayReport early = replays.replay("unified_attach_group_creation");
    System.out.print(early.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, early.outcome(), early.render());
    assertTrue(early.spec().startsWith("deadlock"), early.spec());
    assertTrue(early.steps().stream().anyMatch(l -> l.startsWith("implementation: ") && l.contains("at GROUPS")),
        "the peer waits in the group creation: " + early.steps());

    ReplayReport half = replays.replay("unified_attach_half_attached");
    System.out.print(half.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, half.outcome(), half.render());
    assertTrue(half.impl().startsWith("AttachStateConsistent at step 0"), half.impl());
    assertTrue(half.steps().get(0).contains("(step by step)") && half.steps().get(0).contains("agreed outcome"),
        half.steps().toString());

    // The lasso's cycle is read and the implementation run through it (LassoJudgement): the retried attach keeps
    // failing and the run's RECV states repeat with the cycle's period.
    ReplayReport retry = replays.replay("unified_attach_register_v2_partial_rollback");
    System.out.print(retry.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, retry.outcome(), retry.render());
    assertTrue(retry.spec().startsWith("violates AttachEventuallySucceeds"), retry.spec());
    assertTrue(retry.steps().stream().anyMatch(l -> l.startsWith("lasso: ") && l.contains("takes no environment"
        + " choice")), retry.steps().toString());
    assertTrue(retry.steps().stream().anyMatch(l -> l.startsWith("implementation: at every RECV")
        && l.contains("halfAttached=true, pending=true")),
        "the retried attach keeps failing on the half-attached controller: " + retry.steps());
  }

  /**
   * Bug PFDIE (knob pf_raise, spec action PfRaise): the storage hit query raises and the prefetch thread dies (the
   * seam: the store the rank's controller queries raises where the schedule says, {@code
   * Timing.storageHitQueryRaises}, and the fault pf_raise_thread_dies lets the raise end the thread). TLC's lasso
   * (fixed polynomial and seed: the same each run) kills both ranks' threads: no thread is left posted at S7, and
   * under wait_complete the request waits for ever for a prefetch no thread will finish (RequestsProgress): the
   * implementation's RECV states repeat with the cycle with the request still waiting ({@link LassoJudgement}). The
   * fixed twin counts the raise as 0 hit pages and runs the same schedule clean.
   */
  @Test
  void aRaisingStorageQueryKillsThePrefetchThreadAndItsFixedTwinCountsItAsNoHit() throws Exception {
    ReplayReport bug = replays.replay("unified_pf_thread_dies");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("violates RequestsProgress"), bug.spec());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains(" (from 0) raise")), bug.steps().toString());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("prefetch thread dies before")), bug.steps().toString());
    assertTrue(bug.steps().stream().anyMatch(l -> l.startsWith("implementation: at every RECV")
        && l.contains("waiting req1")), "the request waits at every repeated RECV: " + bug.steps());

    ReplayReport twin = replays.replay("unified_pf_thread_dies_fixed");
    System.out.print(twin.render());
    assertEquals(ReplayReport.Outcome.CLEAN, twin.outcome(), twin.render());
    assertEquals("unified_pf_thread_dies", twin.schedule());
  }
}
