package dev.hicachesync.cli;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.TlcSearch;

/** {@code check --simulate N [--depth D] [--seed S]}: the defaults and the checks on the values. */
final class SimulationOptions {

  /** Steps per behaviour: enough for three requests at 16 ranks to be received, prefetched and completed. */
  static final int DEFAULT_DEPTH = 500;
  /** A fixed seed: a run is replayable unless another is asked for. */
  static final long DEFAULT_SEED = 1;

  private SimulationOptions() {}

  /** Behaviours an ad-hoc model too large to search exhaustively is simulated with by default. */
  static final long FALLBACK_BEHAVIOURS = 100;

  /** The simulation an ad-hoc model gets when it is too large for the exhaustive search. */
  static TlcSearch.Simulation fallback() {
    return new TlcSearch.Simulation(FALLBACK_BEHAVIOURS, DEFAULT_DEPTH, DEFAULT_SEED);
  }

  static TlcSearch.Simulation search(long behaviours, Integer depth, Long seed) throws BadInputException {
    if (behaviours < 1) {
      throw new BadInputException("--simulate takes the number of behaviours, at least 1 (got " + behaviours + ")");
    }
    if (depth != null && depth < 1) {
      throw new BadInputException("--depth must be at least 1 step (got " + depth + ")");
    }
    return new TlcSearch.Simulation(behaviours, depth == null ? DEFAULT_DEPTH : depth, seed == null ? DEFAULT_SEED : seed);
  }
}
