package dev.hicachesync.modelcheck.validate;

import dev.hicachesync.modelcheck.TlcResult;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of validating one trace.
 *
 * @param outcome what TLC found
 * @param events number of spec events in the trace (after merging members' lines)
 * @param event for {@link Outcome#REJECTED} the first event no behaviour matches; for {@link
 *     Outcome#INVARIANT_BROKEN} the last event matched before the state that breaks the invariant
 * @param invariant for {@link Outcome#INVARIANT_BROKEN}, its name; else ""
 * @param allowed for {@link Outcome#REJECTED}, what the spec's behaviours had posted there, one line per
 *     distinct alternative (at most a few)
 * @param message for {@link Outcome#TLC_FAILED}, TLC's message in one line; else ""
 * @param tlc the TLC run, if there was one
 * @param disagreement where the recorded ranks' own lines first disagree (results, or snapshots at RECV),
 *     if they do: see {@link SpecEvents#firstDisagreement}
 */
public record Validation(Outcome outcome, int events, Optional<SpecEvent> event, String invariant,
    List<String> allowed, String message, Optional<TlcResult> tlc, Optional<String> disagreement) {

  /** What a validation found. */
  public enum Outcome {
    /** Some behaviour of the spec matches every event. */
    ACCEPTED,
    /** No behaviour matches event {@code event}. */
    REJECTED,
    /** A behaviour matching the trace up to {@code event} breaks a model invariant. */
    INVARIANT_BROKEN,
    /** TLC failed or timed out. */
    TLC_FAILED
  }

  public Validation {
    allowed = List.copyOf(allowed);
  }
}
