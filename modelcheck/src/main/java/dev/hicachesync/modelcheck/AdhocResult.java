package dev.hicachesync.modelcheck;

import java.util.List;
import java.util.Optional;

/**
 * An ad-hoc check's parts (safety, then liveness) and the verdict they add up to: a violation if a
 * part found one, {@code holds} only if every part explored its whole state space, else
 * {@code no violation found} when a part was only simulated (no proof), else {@code timeout} (a part was
 * cut by the time limit) or {@code error}.
 */
public record AdhocResult(List<AdhocPart> parts) {

  public AdhocResult {
    parts = List.copyOf(parts);
  }

  /** The part that found a counterexample, if one did. */
  public Optional<AdhocPart> violation() {
    return parts.stream().filter(p -> p.status() == AdhocPart.Status.VIOLATED).findFirst();
  }

  /** The verdict of the whole check. */
  public Verdict verdict() {
    Optional<AdhocPart> violated = violation();
    if (violated.isPresent()) {
      return violated.get().result().orElseThrow().verdict();
    }
    if (parts.stream().anyMatch(p -> p.status() == AdhocPart.Status.FAILED)) {
      return Verdict.ERROR;
    }
    boolean allExhaustive = parts.stream()
        .allMatch(p -> p.status() == AdhocPart.Status.EXHAUSTIVE
            || p.status() == AdhocPart.Status.NOT_RUN && p.checked().isEmpty());
    if (allExhaustive) {
      return Verdict.HOLDS;
    }
    boolean sampled = parts.stream().anyMatch(p -> p.status() == AdhocPart.Status.SAMPLED)
        && parts.stream().noneMatch(p -> p.status() == AdhocPart.Status.CUT);
    return sampled ? Verdict.NO_VIOLATION_FOUND : Verdict.TIMEOUT;
  }
}
