package dev.hicachesync.sim.workload;

import java.util.List;

/**
 * A source of requests for one attention-DP replica (synthetic sessions, or a replayed trace).
 *
 * <p>Contract: a pure function of its construction arguments and the step, so that every rank of a sync
 * domain builds its own instance and sees the same requests (the simulator's stand-in for the request
 * broadcast, which RECV checks). {@link #arrivals} is called once per step, for steps 0, 1, 2, ... in order.
 */
public interface Workload {

  /** Returns the requests that arrive at {@code step}, in arrival order. */
  List<Request> arrivals(long step);

  /**
   * Told when request {@code r} is admitted: its matched prefix was {@code deviceTokens} on L1, then
   * {@code hostTokens} loaded back from L2, then {@code storageTokens} prefetched from L3 (the rest of the
   * prompt is computed). Called on every rank of the replica, in admission order, from the rank's
   * thread; for per-request reporting only, it must not influence {@link #arrivals}. Default: ignored.
   */
  default void admitted(Request r, int deviceTokens, int hostTokens, int storageTokens) {}

  /** Returns a one-line description for the run's header. */
  String describe();

  /** Builds the instance of replica {@code dpRank}; called once per rank. */
  @FunctionalInterface
  interface Factory {
    Workload create(long seed, int dpRank);
  }
}
