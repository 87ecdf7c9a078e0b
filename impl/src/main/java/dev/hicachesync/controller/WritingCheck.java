package dev.hicachesync.controller;

import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sync.SpecStep;
import dev.hicachesync.sync.SyncPoint;

/**
 * S1, {@code writing_check}: every rank pops the same number of leading write acks — the MIN over the sync
 * domain of the acks whose GPU event is done here — unlocks each node and starts its storage backup.
 *
 * <p>Failure path: a rank that decides on its own count (no collective: {@code pre20460} under CP) unlocks
 * a node the others still hold, an eviction then removes it on that rank only, and the trees diverge (B1).
 * A rank that skips the collective when it has nothing ready leaves the others in it (B3,
 * {@link ControllerFaults#skipIdleWriteCheck()}). Scheduler thread only.
 */
@SpecStep(SpecStep.Actor.SCHEDULER)
final class WritingCheck {
  private final RankState s;

  WritingCheck(RankState s) {
    this.s = s;
  }

  void run() {
    int ready = s.acks().writesDone();
    if (ready == 0 && s.faults().skipIdleWriteCheck()) {
      return; // B3: the early return before the all_reduce
    }
    long n = s.sync().reduce(SyncPoint.S1, ReduceOp.MIN, new long[] {ready})[0];
    s.acks().popWrites((int) n);
    s.after(SyncPoint.S1);
  }
}
