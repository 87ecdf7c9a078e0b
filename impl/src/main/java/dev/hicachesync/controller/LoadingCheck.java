package dev.hicachesync.controller;

import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sync.SpecStep;
import dev.hicachesync.sync.SyncPoint;

/**
 * S2, {@code loading_check}: every rank pops the MIN over the sync domain of its completed leading load
 * acks and unlocks each loaded path.
 *
 * <p>Failure path (B5, {@link ControllerFaults#unsyncedLoadingCheck()}): popping the local count unlocks
 * the loaded node early on the fastest rank; an admission then evicts it there only. Scheduler thread only.
 */
@SpecStep(SpecStep.Actor.SCHEDULER)
final class LoadingCheck {
  private final RankState s;

  LoadingCheck(RankState s) {
    this.s = s;
  }

  void run() {
    int ready = s.acks().loadsDone();
    long n = s.faults().unsyncedLoadingCheck()
        ? ready
        : s.sync().reduce(SyncPoint.S2, ReduceOp.MIN, new long[] {ready})[0];
    s.acks().popLoads((int) n);
    s.after(SyncPoint.S2);
  }
}
