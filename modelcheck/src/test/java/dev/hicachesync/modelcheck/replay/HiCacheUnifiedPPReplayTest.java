package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code check --replay} of the PD prefill models ({@code HiCacheUnifiedPP}, {@link HiCacheUnifiedPPReplay}): the
 * request waits in PD prefill's bootstrap queue until the ring moves it into both stages' waiting queues at one
 * step, its final ack reaches both stages' queues at one moment that falls in stage 0's step 2 and stage 1's step
 * 1, and each stage admits on its own {@code check_prefetch_progress}. Every HiCacheUnifiedPP row of the committed
 * table ({@code docs/reference/replays.md}) has its outcome.
 */
class HiCacheUnifiedPPReplayTest {

  static CatalogueReplays replays;

  @BeforeAll
  static void load() throws Exception {
    replays = ReplayTable.replays();
  }

  @TestFactory
  Stream<DynamicTest> everyPdPrefillReplayHasItsCommittedOutcome() {
    return ReplayTable.rows().stream().filter(r -> r.module().equals("HiCacheUnifiedPP"))
        .map(row -> DynamicTest.dynamicTest(row.model() + ": " + row.outcome(), () -> ReplayTable.check(replays, row)));
  }

  /**
   * #34287 as reported: each stage drains its own ack queue (Drain stage_local). Stage 1 drains the ack at its
   * step 1, its prefetch completes and it admits the request there; stage 0 got the ack after its step 1's
   * drain and admits at step 2: the stages' step-1 batches differ (TreeAgreement at step 1, as the spec's).
   * Stage 0's forwarded count (the fix, Drain forwarded) makes stage 1 wait for step 2 too: clean.
   */
  @Test
  void aStageLocalDrainAdmitsOnOneStageAStepEarly() throws Exception {
    ReplayReport bug = replays.replay("unified_pp_stage_local_drain");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("violates TreeAgreement") && bug.spec().endsWith("step 1"), bug.spec());
    assertTrue(bug.impl().startsWith("TreeAgreement") || bug.impl().contains("TreeAgreement at step 1"), bug.impl());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("bootstrapped from step 1")), bug.steps().toString());
    ReplayReport fixed = replays.replay("unified_pp_forwarded_drain");
    System.out.print(fixed.render());
    assertEquals(ReplayReport.Outcome.CLEAN, fixed.outcome(), fixed.render());
  }

  /**
   * The PP-ticket hypothesis (Ready thread): with the forwarded drain, stage 1's completion-sync thread has
   * queued the final ack before its step 1's admission, which counts the prefetch done without a drain; stage
   * 0's thread got there only at its step 2: TreeAgreement at step 1.
   */
  @Test
  void aThreadSetReadinessAdmitsOnOneStageAStepEarly() throws Exception {
    ReplayReport bug = replays.replay("unified_pp_thread_ready");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("violates TreeAgreement") && bug.spec().endsWith("step 1"), bug.spec());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("pp_thread_readiness")), bug.steps().toString());
  }

  /** Admission consensus (#34568) has no seam: refused by name, before TLC runs. */
  @Test
  void consensusAdmissionIsNotReplayable() throws Exception {
    ReplayReport r = replays.replay("unified_pp_consensus_34568");
    assertEquals(ReplayReport.Outcome.NOT_REPLAYABLE, r.outcome(), r.render());
    assertTrue(r.detail().startsWith("Admission consensus"), r.detail());
  }
}
