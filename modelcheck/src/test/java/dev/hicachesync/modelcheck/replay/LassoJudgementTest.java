package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How {@link LassoJudgement} reads a lasso's cycle: the implementation's step of its first RECV, the RECVs it
 * completes (the closing step back to the loop's state counted too), and its environment choices, with which a
 * cycle is not judged (nothing is run). The catalogue's {@code unified_attach_register_v2_partial_rollback} row
 * ({@link UnifiedReplayTest}) runs the real judgement.
 */
class LassoJudgementTest {

  private static ErrorTrace lasso(int loopTarget, String loopAction, String... actions) {
    List<TraceState> states = new ArrayList<>();
    states.add(new TraceState(1, TraceState.INITIAL, "", Map.of()));
    for (String a : actions) {
      states.add(new TraceState(states.size() + 1, a, "", Map.of()));
    }
    return new ErrorTrace(states, ErrorTrace.Ending.LOOP, loopTarget, loopAction);
  }

  @Test
  void theCycleCountsItsRecvsFromTheLoopStateOnIncludingTheClosingStep() {
    // states 2..9; back to state 5 (after the second RecvComplete) by SchedAttachRest
    ErrorTrace t = lasso(5, "SchedAttachRest", "SchedRecv", "RecvComplete", "SchedAttach", "RecvComplete",
        "SchedAttachRest", "AttachOkComplete", "SchedRecv", "RecvComplete");
    LassoJudgement.Cycle c = LassoJudgement.cycle(t);
    assertEquals(2, c.firstRecv(), "two RECVs completed before the cycle: its first is step 2's");
    assertEquals(1, c.steps());
    assertTrue(c.choices().isEmpty(), c.choices().toString());
    assertEquals(8, c.atFirstRecv().number(), "the spec's lockstep state before the cycle's RecvComplete");

    LassoJudgement.Cycle closing = LassoJudgement.cycle(lasso(3, "RecvComplete", "SchedRecv", "RecvComplete",
        "SchedRecv"));
    assertEquals(1, closing.steps(), "the RecvComplete back to the loop's state is the cycle's");
    assertEquals(1, closing.firstRecv());
  }

  @Test
  void aCycleWithEnvironmentChoicesIsNotJudged() {
    Verdict v = Verdict.violates("AttachEventuallySucceeds");
    ErrorTrace t = lasso(2, "RecvComplete", "SchedRecv", "EnvClock", "SchedAbortCheck");
    assertTrue(LassoJudgement.applies(v, t));
    assertFalse(LassoJudgement.applies(Verdict.violates("PrefetchTerminates"), t), "not this judgement's property");
    assertEquals(List.of("EnvClock"), LassoJudgement.cycle(t).choices());
    ReplayReport r = LassoJudgement.judge("m", "m", "spec", new ArrayList<>(), v, t, null, 2);
    assertEquals(ReplayReport.Outcome.NOT_REPLAYABLE, r.outcome(), r.render());
    assertTrue(r.detail().contains("environment choices [EnvClock]"), r.detail());
  }

  private static Map<Integer, List<String>> recvStates(String... states) {
    Map<Integer, List<String>> seen = new java.util.TreeMap<>();
    for (int i = 0; i < states.length; i++) {
      seen.put(1 + i, List.of(states[i]));
    }
    return seen;
  }

  @Test
  void theRepetitionMayStartUpToMaxShiftStepsAfterTheCyclesFirstRecv() {
    // one RECV a cycle, first of step 1; steps 1..(1 + MAX_SHIFT + 3) compared
    LassoJudgement.Cycle c = new LassoJudgement.Cycle(1, 1, List.of(), List.of(), "");
    assertEquals(1, LassoJudgement.repetitionStart(recvStates("a", "a", "a", "a", "a", "a"), c));
    assertEquals(2, LassoJudgement.repetitionStart(recvStates("running", "a", "a", "a", "a", "a"), c),
        "a request still running at the first RECV: the run repeats from the next step");
    assertEquals(-1, LassoJudgement.repetitionStart(recvStates("x", "y", "z", "a", "a", "a"), c),
        "a repetition starting past MAX_SHIFT is not taken");
    assertEquals(-1, LassoJudgement.repetitionStart(recvStates("a", "a", "a", "a", "a", "b"), c),
        "a state that changes in the last cycle breaks the repetition");
    // two RECVs a cycle: period 2
    LassoJudgement.Cycle two = new LassoJudgement.Cycle(1, 2, List.of(), List.of(), "");
    assertEquals(1, LassoJudgement.repetitionStart(recvStates("a", "b", "a", "b", "a", "b", "a", "b", "a"), two));
  }
}
