package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.sim.Divergence;
import dev.hicachesync.sync.Invariant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a replay judges the two sides once both have run ({@link JavaReplay#judge}, used by both drivers): the
 * same invariant at the same step reproduces; anything else is a disagreement whose reason starts with the side
 * the replay holds wrong. The catalogue's replays exercise the first two outcomes; no catalogue model disagrees
 * today, so the disagreements are built here.
 */
class ReplayJudgementTest {

  private static final List<String> CFG = List.of("TreeAgreement", "AckAgreement", "CollectiveMatching");
  private static final Verdict TREE = Verdict.violates("TreeAgreement");

  private static Divergence at(long step, Invariant... broken) {
    return new Divergence(step, "RECV", List.of(broken), 0, 1, "", "");
  }

  private static ReplayReport judge(boolean twin, Verdict spec, Divergence impl, int lastStep) {
    return JavaReplay.judge("m", "m", "spec side", "impl side", List.of(), twin, spec, impl, lastStep, CFG);
  }

  @Test
  void theSpecsInvariantFirstInTheCfgsOrderAtTheSameStepReproduces() {
    ReplayReport r = judge(false, TREE, at(3, Invariant.AckAgreement, Invariant.TreeAgreement), 3);
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, r.outcome(), r.render());
  }

  @Test
  void anotherInvariantOrStepIsTheImplementationsFault() {
    ReplayReport other = judge(false, TREE, at(3, Invariant.AckAgreement), 3);
    assertEquals(ReplayReport.Outcome.PART_WAYS, other.outcome());
    assertTrue(other.detail().startsWith("the implementation is wrong: the spec breaks TreeAgreement"), other.detail());
    ReplayReport later = judge(false, TREE, at(4, Invariant.TreeAgreement), 3);
    assertEquals(ReplayReport.Outcome.PART_WAYS, later.outcome());
    assertTrue(later.detail().startsWith("the implementation is wrong: ") && later.detail().endsWith("at step 4"),
        later.detail());
  }

  @Test
  void noViolationOnTheSpecsScheduleIsTheSpecsFault() {
    ReplayReport r = judge(false, TREE, null, 3);
    assertEquals(ReplayReport.Outcome.PART_WAYS, r.outcome());
    assertTrue(r.detail().startsWith("the spec is wrong: the implementation does not break TreeAgreement"), r.detail());
  }

  @Test
  void aFixedTwinRunsCleanOrTheImplementationIsWrong() {
    assertEquals(ReplayReport.Outcome.CLEAN, judge(true, TREE, null, 3).outcome());
    ReplayReport r = judge(true, TREE, at(2, Invariant.TreeAgreement), 3);
    assertEquals(ReplayReport.Outcome.PART_WAYS, r.outcome());
    assertTrue(r.detail().startsWith("the implementation is wrong: the fixed version still breaks TreeAgreement"),
        r.detail());
  }

  @Test
  void aDeadlockIsCollectiveMatchingAloneAtItsStepOrTheNext() {
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION,
        judge(false, Verdict.DEADLOCK, at(4, Invariant.CollectiveMatching), 3).outcome());
    assertEquals(ReplayReport.Outcome.PART_WAYS,
        judge(false, Verdict.DEADLOCK, at(4, Invariant.CollectiveMatching, Invariant.TreeAgreement), 3).outcome());
  }
}
