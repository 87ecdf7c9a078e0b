package dev.hicachesync.sim;

import dev.hicachesync.sim.workload.Request;
import java.util.List;

/**
 * What RECV carries in the one scheduler loop: how the ranks of a sync domain agree on the requests that
 * arrive in a step, and on when the run stops. Rank thread only.
 */
interface Intake {

  /**
   * Runs step {@code s}'s RECV; returns the requests that arrive (the same on every rank of the domain), or
   * null when the run stops here.
   *
   * @param stop whether this rank wants the run stopped (a divergence its leader found, a failed peer)
   */
  List<Request> receive(long s, boolean stop);

  /**
   * Whether the received request {@code rid} is in the waiting queue, where admission looks for it: every
   * received request by default; a PD prefill request only once the bootstrap ring moved it there ({@link
   * PdBootstrapQueue}).
   */
  default boolean waitingQueueHolds(String rid) {
    return true;
  }
}
