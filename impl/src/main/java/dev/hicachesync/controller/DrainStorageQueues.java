package dev.hicachesync.controller;

import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sync.SyncPoint;

/**
 * S3, {@code drain_storage_control_queues}: the sizes of the revoke, backup-ack and host-release queues are
 * MIN-reduced as one vector and every rank pops exactly that many of each — revokes release the prefetch
 * anchor, backup acks release host protection, releases free host slots.
 *
 * <p>Failure path: popping local sizes frees host slots or drops protection on one rank only, so a later
 * host allocation or eviction differs (INV-6, INV-3). Scheduler thread only.
 */
final class DrainStorageQueues {
  private final CacheController c;

  DrainStorageQueues(CacheController c) {
    this.c = c;
  }

  void run() {
    long[] n = c.sync.reduce(SyncPoint.S3, ReduceOp.MIN, new long[] {
        c.revokeQueue.leadingReady(), c.backupAckQueue.leadingReady(), c.hostReleaseQueue.leadingReady()});
    c.drainControlQueues((int) n[0], (int) n[1], (int) n[2]);
    c.after(SyncPoint.S3);
  }
}
