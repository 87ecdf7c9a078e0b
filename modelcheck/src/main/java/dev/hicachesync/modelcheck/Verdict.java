package dev.hicachesync.modelcheck;

import java.util.Locale;

/**
 * The outcome of a model check, expected (from the catalogue) or observed (from TLC).
 *
 * <p>Text form: {@code holds}, {@code deadlock}, {@code violates <Property>}, and for observed
 * results only {@code no violation found} (a simulation), {@code timeout} and {@code error}.
 *
 * @param kind what happened
 * @param property for {@link Kind#VIOLATES}, the violated invariant or property; else ""
 */
public record Verdict(Kind kind, String property) {

  /** What kind of outcome. */
  public enum Kind {
    /** Every invariant and property holds on the whole state space (TLC exit 0). */
    HOLDS,
    /** A reachable state has no successor (TLC exit 11). */
    DEADLOCK,
    /** An invariant (exit 12) or a temporal/action property (exit 13) is violated. */
    VIOLATES,
    /**
     * A simulation ({@link TlcSearch.Simulation}) ran every behaviour it was asked for and found no
     * violation: not a proof (only an exhaustive search says {@link #HOLDS}).
     */
    NO_VIOLATION_FOUND,
    /** The run hit its time limit and was killed. */
    TIMEOUT,
    /** TLC itself failed: parse error, bad config, evaluation error, crash. */
    ERROR
  }

  /** Every property holds. */
  public static final Verdict HOLDS = new Verdict(Kind.HOLDS, "");
  /** Deadlock reached. */
  public static final Verdict DEADLOCK = new Verdict(Kind.DEADLOCK, "");
  /** A simulation found nothing: no proof. */
  public static final Verdict NO_VIOLATION_FOUND = new Verdict(Kind.NO_VIOLATION_FOUND, "");
  /** Killed at the time limit. */
  public static final Verdict TIMEOUT = new Verdict(Kind.TIMEOUT, "");
  /** TLC failed. */
  public static final Verdict ERROR = new Verdict(Kind.ERROR, "");

  /** {@code violates <property>}. */
  public static Verdict violates(String property) {
    return new Verdict(Kind.VIOLATES, property);
  }

  /**
   * Parses an expected verdict as written in the catalogue.
   *
   * @throws IllegalArgumentException if it is not {@code holds}, {@code deadlock} or {@code
   *     violates <Property>}
   */
  public static Verdict parseExpected(String text) {
    String t = text == null ? "" : text.trim();
    if (t.equals("holds")) {
      return HOLDS;
    }
    if (t.equals("deadlock")) {
      return DEADLOCK;
    }
    if (t.startsWith("violates ") && t.substring(9).trim().matches("[A-Za-z_][A-Za-z0-9_]*")) {
      return violates(t.substring(9).trim());
    }
    throw new IllegalArgumentException(
        "expected verdict '" + text + "' is not one of: holds, deadlock, violates <Property>");
  }

  /** Whether this observed verdict is the expected one. */
  public boolean matches(Verdict expected) {
    return kind == expected.kind && property.equals(expected.property);
  }

  /** Whether TLC found a counterexample (a deadlock or a violated property). */
  public boolean isViolation() {
    return kind == Kind.DEADLOCK || kind == Kind.VIOLATES;
  }

  @Override
  public String toString() {
    String word = kind.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    return kind == Kind.VIOLATES ? word + " " + property : word;
  }
}
