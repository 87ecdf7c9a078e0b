package dev.hicachesync.api;

import dev.hicachesync.controller.CacheController;

/**
 * <b>Internal</b>: the simulator's and the tests' door into a rank, never for an engine (the worked
 * example's import test rejects it). The simulator builds each rank's controller itself, with its seeded
 * environment, trace observers, data path and deliberate bugs ({@code controller.ControllerFaults}), and then
 * drives it through the same {@link HiCacheRank} an engine uses.
 */
public final class Seam {
  private Seam() {}

  /** Returns the public API over a controller the simulator built; its environment is the simulator's. */
  public static HiCacheRank wrap(CacheController controller) {
    return new HiCacheRank(controller, null);
  }

  /** Returns the controller behind {@code rank}, for the simulator's checks and statistics. */
  public static CacheController controller(HiCacheRank rank) {
    return rank.controller;
  }
}
