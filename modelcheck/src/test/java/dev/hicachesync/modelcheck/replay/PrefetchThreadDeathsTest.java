package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import dev.hicachesync.sim.Divergence;
import dev.hicachesync.sync.Invariant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a {@code HiCacheSync.tla} counterexample's {@code PrefetchThreadDies} and {@code TimeoutFires} steps become for
 * the replay ({@link PrefetchThreadDeaths}, {@link PrefetchTimeouts}: taken in step k's window, seen by the
 * implementation from step k + 1), and how {@code PrefetchThreadNeverStuck} is judged ({@link StuckThreadJudgement}:
 * the stuck S7's collective timeout at the step the spec's thread got stuck). The catalogue's {@code
 * knob_pf_thread_dies} row ({@code replays.md}, checked by {@link JavaReplayTest}) runs the real replay.
 */
class PrefetchThreadDeathsTest {

  private static final TlaValue NO_CALL = new TlaValue.Rec(Map.of("site", new TlaValue.Str("none")));
  private static final TlaValue S7 = new TlaValue.Rec(Map.of("site", new TlaValue.Str("S7")));

  /** A two-rank state: rank 0's thread dead or not, rank 1's pf call, rank 0's prefetch of request 1 timed out or not. */
  private static TraceState state(String action, boolean dead0, TlaValue pf1, boolean to0) {
    TlaValue lenv0 = new TlaValue.Rec(Map.of("dead", new TlaValue.Bool(dead0)));
    TlaValue lenv1 = new TlaValue.Rec(Map.of("dead", new TlaValue.Bool(false)));
    TlaValue coll0 = new TlaValue.Rec(Map.of("pf", NO_CALL));
    TlaValue coll1 = new TlaValue.Rec(Map.of("pf", pf1));
    TlaValue op0 = new TlaValue.Rec(Map.of("to", new TlaValue.Bool(to0)));
    TlaValue op1 = new TlaValue.Rec(Map.of("to", new TlaValue.Bool(false)));
    return new TraceState(1, action, "", Map.of(
        "lenv", new TlaValue.Tuple(List.of(lenv0, lenv1)),
        "coll", new TlaValue.Tuple(List.of(coll0, coll1)),
        "pf", new TlaValue.Tuple(List.of(new TlaValue.Tuple(List.of(op0)), new TlaValue.Tuple(List.of(op1))))));
  }

  @Test
  void aDeathAndATimeoutInStepKsWindowAreTheImplementationsFromStepKPlusOne() {
    PrefetchThreadDeaths deaths = new PrefetchThreadDeaths(2);
    PrefetchTimeouts timeouts = new PrefetchTimeouts(2);
    TraceState a = state("SchedCanTerminatePrefetch", false, NO_CALL, false);
    TraceState b = state("PfStorageHitQuery", false, S7, false);
    TraceState c = state("PrefetchThreadDies", true, S7, false);
    TraceState d = state("TimeoutFires", true, S7, true);
    for (TraceState[] step : new TraceState[][] {{a, b}, {b, c}, {c, d}}) {
      for (int r = 0; r < 2; r++) {
        deaths.track(step[0], step[1], r, 2);
        timeouts.track(step[0], step[1], r, 2);
      }
    }
    assertFalse(deaths.dead(0, 2), "the window of step 2 is after its passes");
    assertTrue(deaths.dead(0, 3) && deaths.dead(0, 9), "dead from the next step's pass on");
    assertFalse(deaths.dead(1, 3), "rank 1's thread lives");
    assertEquals(1, deaths.stuckRank(), "rank 1's S7 is still posted at the end");
    assertEquals(3, deaths.stuckStep(), "posted in step 2's window: the implementation's pass of step 3");
    assertFalse(timeouts.fired(0, 1, 2));
    assertTrue(timeouts.fired(0, 1, 3));
    assertFalse(timeouts.fired(1, 1, 3), "rank 1's timeout did not fire");
  }

  @Test
  void theStuckS7ReproducesAsItsCollectivesTimeoutAtTheSpecsStepOnly() {
    PrefetchThreadDeaths deaths = new PrefetchThreadDeaths(2);
    deaths.track(state("SchedRecvRequests", false, NO_CALL, false), state("PfStorageHitQuery", false, S7, false), 1,
        0);
    Verdict stuck = Verdict.violates("PrefetchThreadNeverStuck");
    Verdict progress = Verdict.violates("RequestsProgress");
    assertFalse(StuckThreadJudgement.applies(stuck, deaths), "no thread of the schedule died");
    assertFalse(StuckThreadJudgement.applies(progress, deaths), "a RequestsProgress lasso of another cause");
    deaths.dies(0, 1);
    assertTrue(StuckThreadJudgement.applies(stuck, deaths));
    assertTrue(StuckThreadJudgement.applies(progress, deaths), "the request waits on the stuck S7 (PFDIE)");
    assertFalse(StuckThreadJudgement.applies(Verdict.violates("TreeAgreement"), deaths));
    List<String> cfg = List.of("TypeOK", "CollectiveMatching", "TreeAgreement");
    Divergence timeout = new Divergence(1, "step 1 prefetch thread", List.of(Invariant.CollectiveMatching), 1, -1,
        "", "");
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, StuckThreadJudgement.judge("m", "m", "spec", "impl", List.of(),
        stuck, timeout, deaths, cfg).outcome());
    Divergence later = new Divergence(2, "step 2 RECV", List.of(Invariant.CollectiveMatching), 0, -1, "", "");
    ReplayReport r = StuckThreadJudgement.judge("m", "m", "spec", "impl", List.of(), stuck, later, deaths, cfg);
    assertEquals(ReplayReport.Outcome.PART_WAYS, r.outcome());
    assertTrue(r.detail().startsWith("the implementation is wrong: the spec's rank 1 waits for ever in S7 from"
        + " step 1"), r.detail());
    assertEquals(ReplayReport.Outcome.PART_WAYS, StuckThreadJudgement.judge("m", "m", "spec", "impl", List.of(),
        stuck, null, deaths, cfg).outcome(), "no hang at all");
    Divergence tree = new Divergence(1, "step 1 RECV", List.of(Invariant.CollectiveMatching,
        Invariant.TreeAgreement), 0, 1, "", "");
    assertEquals(ReplayReport.Outcome.PART_WAYS, StuckThreadJudgement.judge("m", "m", "spec", "impl", List.of(),
        stuck, tree, deaths, cfg).outcome(), "another invariant of the cfg broken too");
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, StuckThreadJudgement.judge("m", "m", "spec", "impl", List.of(),
        progress, timeout, deaths, cfg).outcome(), "RequestsProgress: the same rule");
  }

  @Test
  void aUnifiedScheduleSetsDeathsAndPostsByTheImplementationsPasses() {
    PrefetchThreadDeaths deaths = new PrefetchThreadDeaths(2);
    deaths.dies(1, 0); // PfRaise before rank 1's S123 of step 0: its pass right before that event check
    deaths.s7Posted(0, 0);
    assertTrue(deaths.dead(1, 0) && !deaths.dead(0, 5));
    assertEquals(0, deaths.stuckRank());
    assertEquals(0, deaths.stuckStep());
    deaths.s7Ended(0);
    assertEquals(-1, deaths.stuckStep(), "S7 completed: nobody waits");
  }
}
