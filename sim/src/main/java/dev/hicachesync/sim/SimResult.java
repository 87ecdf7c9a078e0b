package dev.hicachesync.sim;

import java.util.List;

/**
 * The outcome of a simulation.
 *
 * @param config what ran
 * @param stats what it measured
 * @param divergence the first divergence, or null
 * @param stepsCompleted steps every rank finished
 * @param finalDigests each domain's canonical tree digest at the end (one per domain, for determinism checks)
 * @param quiescence after the drain steps: what is still in flight or leaked (bounded liveness and
 *     no-leak checks); empty when all is well or when no drain was asked for
 * @param elapsedMillis wall time of the run (reporting only; never an input)
 */
public record SimResult(SimConfig config, SimStats stats, Divergence divergence, long stepsCompleted,
    List<Long> finalDigests, List<String> quiescence, long elapsedMillis) {

  /** Returns whether every rank agreed at every lockstep point and (after a drain) fell quiet. */
  public boolean ok() {
    return divergence == null && quiescence.isEmpty();
  }
}
