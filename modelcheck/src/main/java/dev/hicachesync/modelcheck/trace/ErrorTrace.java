package dev.hicachesync.modelcheck.trace;

import java.util.List;

/**
 * The counterexample TLC printed: its states and, for liveness, how the behaviour ends.
 *
 * @param states the states in order, state 1 first
 * @param ending how the trace ends: a finite prefix, a loop back to an earlier state, or stuttering
 * @param loopTarget for {@link Ending#LOOP}, the number of the state the behaviour returns to
 * @param loopAction for {@link Ending#LOOP}, the action of the step from the last state back to {@code loopTarget}
 *     ("" when TLC did not name it)
 */
public record ErrorTrace(List<TraceState> states, Ending ending, int loopTarget, String loopAction) {

  /** A trace whose loop-closing action is not known. */
  public ErrorTrace(List<TraceState> states, Ending ending, int loopTarget) {
    this(states, ending, loopTarget, "");
  }

  /** How a trace ends. */
  public enum Ending {
    /** A safety trace: the last state violates the property or has no successor. */
    PREFIX,
    /** A lasso: after the last state the behaviour goes back to {@code loopTarget} forever. */
    LOOP,
    /** The behaviour stutters in the last state forever. */
    STUTTERING
  }

  public ErrorTrace {
    states = List.copyOf(states);
  }

  /** Number of states; the length of the counterexample. */
  public int length() {
    return states.size();
  }

  /** One line describing how the behaviour continues after the last state, or "" for a prefix. */
  public String endingNote() {
    switch (ending) {
      case LOOP:
        return "then back to state " + loopTarget + " forever";
      case STUTTERING:
        return "then stutters forever (no further step is taken)";
      default:
        return "";
    }
  }
}
