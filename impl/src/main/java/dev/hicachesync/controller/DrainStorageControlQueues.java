package dev.hicachesync.controller;

import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sync.SpecStep;
import dev.hicachesync.sync.SyncPoint;

/**
 * S3, {@code drain_storage_control_queues}: the sizes of the revoke, backup-ack and host-release queues are
 * MIN-reduced as one vector and every rank pops exactly that many of each — revokes release the prefetch
 * anchor, backup acks release host protection, releases free host slots.
 *
 * <p>Failure path: popping local sizes frees host slots or drops protection on one rank only, so a later
 * host allocation or eviction differs (INV-6, INV-3). Scheduler thread only.
 */
@SpecStep(SpecStep.Actor.SCHEDULER)
final class DrainStorageControlQueues {
  private final RankState s;

  DrainStorageControlQueues(RankState s) {
    this.s = s;
  }

  void run() {
    long[] mine = {s.queues().revokesReady(), s.queues().backupAcksReady(), s.queues().releasesReady()};
    if (s.faults().localS3Payload()) { // knob local_payload: up to the last non-empty queue only
      int len = mine.length;
      while (len > 0 && mine[len - 1] == 0) {
        len--;
      }
      mine = java.util.Arrays.copyOf(mine, len);
    }
    long[] n = s.sync().reduce(SyncPoint.S3, ReduceOp.MIN, mine); // an empty vector is still a call (of size 0)
    s.queues().drain((int) at(n, 0), (int) at(n, 1), (int) at(n, 2));
    s.after(SyncPoint.S3);
  }

  /** Entry i of a result, 0 past its end (the spec's At: a short vector of local_payload). */
  private static long at(long[] x, int i) {
    return i < x.length ? x[i] : 0;
  }
}
