package dev.hicachesync.controller;

import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sync.SyncPoint;

/**
 * S2, {@code loading_check}: every rank pops the MIN over the sync domain of its completed leading load
 * acks and unlocks each loaded path.
 *
 * <p>Failure path (B5, {@link ControllerFaults#unsyncedLoadingCheck()}): popping the local count unlocks
 * the loaded node early on the fastest rank; an admission then evicts it there only. Scheduler thread only.
 */
final class LoadingCheck {
  private final CacheController c;

  LoadingCheck(CacheController c) {
    this.c = c;
  }

  void run() {
    int ready = CacheController.leadingDone(c.loadAcks);
    long n = c.faults.unsyncedLoadingCheck()
        ? ready
        : c.sync.reduce(SyncPoint.S2, ReduceOp.MIN, new long[] {ready})[0];
    c.popLoadAcks((int) n);
    c.after(SyncPoint.S2);
  }
}
