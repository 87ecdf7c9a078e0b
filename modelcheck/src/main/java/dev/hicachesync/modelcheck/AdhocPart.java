package dev.hicachesync.modelcheck;

import java.util.List;
import java.util.Optional;

/**
 * One part of an ad-hoc check: the invariants (safety) or the temporal properties (liveness), and
 * how far TLC got with them.
 *
 * @param part which part
 * @param checked the invariant or property names (safety also checks deadlock unless the cfg turns it off)
 * @param workers TLC workers the part ran with
 * @param result TLC's result, or empty when the part was not run
 * @param skipped why the part was not run; "" when it ran
 */
public record AdhocPart(Part part, List<String> checked, int workers, Optional<TlcResult> result, String skipped) {

  /** The two parts, in the order they run. */
  public enum Part {
    /** Invariants and deadlock, with the workers asked for. */
    SAFETY,
    /** Temporal properties, with one worker (several are unsound in this TLC). */
    LIVENESS;

    /** {@code safety} / {@code liveness}. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** How a part ended. */
  public enum Status {
    /** The whole state space was explored and everything checked holds. */
    EXHAUSTIVE,
    /** A counterexample was found (a complete answer, whatever was left unexplored). */
    VIOLATED,
    /** A simulation ran every behaviour it was asked for and found no violation: not a proof. */
    SAMPLED,
    /** The time limit stopped TLC: no verdict. */
    CUT,
    /** TLC failed. */
    FAILED,
    /** Not run (see {@link #skipped}). */
    NOT_RUN
  }

  public AdhocPart {
    checked = List.copyOf(checked);
  }

  /** A part that ran. */
  static AdhocPart ran(Part part, List<String> checked, int workers, TlcResult result) {
    return new AdhocPart(part, checked, workers, Optional.of(result), "");
  }

  /** A part that did not run, and why. */
  static AdhocPart notRun(Part part, List<String> checked, String why) {
    return new AdhocPart(part, checked, 0, Optional.empty(), why);
  }

  /** How the part ended. */
  public Status status() {
    if (result.isEmpty()) {
      return Status.NOT_RUN;
    }
    Verdict v = result.get().verdict();
    if (v.isViolation()) {
      return Status.VIOLATED;
    }
    switch (v.kind()) {
      case HOLDS:
        return Status.EXHAUSTIVE;
      case NO_VIOLATION_FOUND:
        return Status.SAMPLED;
      case TIMEOUT:
        return Status.CUT;
      default:
        return Status.FAILED;
    }
  }
}
