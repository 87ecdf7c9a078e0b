package dev.hicachesync.sim;

import dev.hicachesync.api.CachedRequest;
import dev.hicachesync.sim.environment.Fault;

/**
 * The abort of a running request as the scheduler loop ({@link RankEngine}) finishes it: SGLang's {@code
 * abort_request} marks it finished ({@code set_finish_with_abort}) and the batch's result caches it like any
 * finished request, so the loop needs nothing more, except under the knob {@code abort_unlock_load} ({@link
 * Fault#ABORT_UNLOCKS_LOAD}), whose abort also drops the lock of a load-back into the request's pages before S2
 * pops its ack. Rank thread.
 */
final class RunningAbort {

  private RunningAbort() {}

  /**
   * Called as {@code rid} ({@code cached} on this rank) finishes: {@code seeded} when the run's seeded aborts
   * chose it ({@code SimConfig.abortRunning}), else the timing says whether it is aborted ({@code
   * Timing.abortsRunning}, a replay's {@code AbortRunningArrives}).
   */
  static void finishing(RankEngine e, SimConfig cfg, String rid, CachedRequest cached, boolean seeded) {
    if (cfg.faults().contains(Fault.ABORT_UNLOCKS_LOAD) && (seeded || e.env().abortsRunning(rid))) {
      e.controller().abortDropsLoadLocks(cached.devicePages());
    }
  }
}
