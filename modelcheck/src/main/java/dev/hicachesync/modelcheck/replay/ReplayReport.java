package dev.hicachesync.modelcheck.replay;

import java.util.List;

/**
 * What a replay found, with both sides.
 *
 * @param model the model whose constants the implementation ran (a bug model, or a fixed twin)
 * @param schedule the model whose counterexample gave the schedule
 * @param outcome the verdict of the comparison
 * @param spec the spec's side in one line ("violates TreeAgreement at state 5, step 2")
 * @param impl the implementation's side in one line
 * @param steps per replayed step and rank, what the spec and the implementation show at RECV
 * @param detail where code and spec part ways, or why the trace cannot be replayed; "" otherwise
 */
public record ReplayReport(String model, String schedule, Outcome outcome, String spec, String impl,
    List<String> steps, String detail) {

  /** The verdict of a replay. */
  public enum Outcome {
    /** The implementation broke the spec's invariant at the spec's step (a bug model). */
    SAME_VIOLATION,
    /** The implementation ran the schedule without a violation (a fixed twin). */
    CLEAN,
    /** Code and spec part ways: another invariant, another step, another value at RECV, or a crash. */
    PART_WAYS,
    /** The counterexample has an action, constant or bug switch the implementation has no seam for. */
    NOT_REPLAYABLE
  }

  public ReplayReport {
    steps = List.copyOf(steps);
  }

  /** Whether the replay came out as expected: the bug's violation for a bug model, clean for a fixed twin. */
  public boolean asExpected(boolean fixedTwin) {
    return outcome == (fixedTwin ? Outcome.CLEAN : Outcome.SAME_VIOLATION);
  }

  /** The report as printed by {@code check --replay}. */
  public String render() {
    StringBuilder b = new StringBuilder();
    b.append("replay of ").append(schedule).append("'s counterexample")
        .append(model.equals(schedule) ? "" : " against " + model).append('\n');
    steps.forEach(s -> b.append("  ").append(s).append('\n'));
    b.append("spec: ").append(spec).append('\n');
    b.append("impl: ").append(impl).append('\n');
    b.append("replay: ").append(switch (outcome) {
      case SAME_VIOLATION -> "the implementation reaches the same violation at the same step";
      case CLEAN -> "the implementation runs the schedule clean";
      case PART_WAYS -> "code and spec part ways: " + detail;
      case NOT_REPLAYABLE -> "not replayable: " + detail;
    }).append('\n');
    return b.toString();
  }
}
