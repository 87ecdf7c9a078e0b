package dev.hicachesync.sync;

/** A rank noticed on its own that an {@link Invariant} fails (e.g. a host slot freed while in use). */
public final class InvariantViolation extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final Invariant invariant;

  /** Creates a violation of {@code invariant} described by {@code message}. */
  public InvariantViolation(Invariant invariant, String message) {
    super(invariant + ": " + message);
    this.invariant = invariant;
  }

  /** Returns the violated invariant. */
  public Invariant invariant() {
    return invariant;
  }
}
