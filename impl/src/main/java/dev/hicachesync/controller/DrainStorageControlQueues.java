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
    long[] n = s.sync().reduce(SyncPoint.S3, ReduceOp.MIN, new long[] {
        s.queues().revokesReady(), s.queues().backupAcksReady(), s.queues().releasesReady()});
    s.queues().drain((int) n[0], (int) n[1], (int) n[2]);
    s.after(SyncPoint.S3);
  }
}
