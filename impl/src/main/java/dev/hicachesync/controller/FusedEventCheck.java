package dev.hicachesync.controller;

import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sync.SyncPoint;

/**
 * S123 (#30511, version {@code merged}): S1, S2 and S3 in one vector all-reduce per step, {@code [write
 * acks ready, load acks ready, revokes, backup acks, host releases]} MIN, then the three pops in order.
 *
 * <p>Why: four small collectives per decode step cost up to 30% of the time per output token. Failure
 * paths are those of {@link WritingCheck}, {@link LoadingCheck} and {@link DrainStorageQueues}; with the B3
 * fault the whole fused collective is skipped when no write ack is ready. Scheduler thread only.
 */
final class FusedEventCheck {
  private final CacheController c;

  FusedEventCheck(CacheController c) {
    this.c = c;
  }

  void run() {
    boolean storage = c.storage != null;
    long[] local = {
      CacheController.leadingDone(c.writeAcks),
      CacheController.leadingDone(c.loadAcks),
      storage ? c.revokeQueue.leadingReady() : 0,
      storage ? c.backupAckQueue.leadingReady() : 0,
      storage ? c.hostReleaseQueue.leadingReady() : 0
    };
    if (local[0] == 0 && c.faults.skipIdleWriteCheck()) {
      return; // B3 in the fused form
    }
    long[] n = c.sync.reduce(SyncPoint.S123, ReduceOp.MIN, local);
    if (c.faults.unsyncedLoadingCheck()) {
      n[1] = local[1]; // B5: the load count taken from this rank alone
    }
    c.popWriteAcks((int) n[0]);
    c.popLoadAcks((int) n[1]);
    c.drainControlQueues((int) n[2], (int) n[3], (int) n[4]);
    c.after(SyncPoint.S123);
  }
}
