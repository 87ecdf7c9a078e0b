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
 * @param elapsedMillis wall time of the run (reporting only; never an input)
 */
public record SimResult(SimConfig config, SimStats stats, Divergence divergence, long stepsCompleted,
    List<Long> finalDigests, long elapsedMillis) {

  /** Returns whether every rank agreed at every lockstep point. */
  public boolean ok() {
    return divergence == null;
  }
}
