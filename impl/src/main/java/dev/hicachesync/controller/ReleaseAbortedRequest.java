package dev.hicachesync.controller;

import dev.hicachesync.sync.SyncPoint;

/**
 * S6, {@code release_aborted_request}: a barrier over the sync domain, then every rank stops the prefetch,
 * hands its host slots back once its reader has stopped and releases the anchor.
 *
 * <p>Failure path: without the barrier a rank can free slots its I/O thread still writes, and reuse them
 * for another request (INV-7). Scheduler thread only.
 */
final class ReleaseAbortedRequest {
  private final CacheController c;

  ReleaseAbortedRequest(CacheController c) {
    this.c = c;
  }

  void run(String rid) {
    PrefetchOperation op = c.ongoingPrefetch.get(rid);
    if (op == null) {
      return;
    }
    c.sync.barrier(SyncPoint.S6);
    c.awaitHandedS7(); // the tail below is queued after the same S7 entries on every rank
    op.state = PrefetchState.ABORTED;
    op.stopAt(0);
    c.releaseTail(op);
    c.tree.releaseHost(op.anchor);
    c.ongoingPrefetch.remove(rid);
    c.stats.prefetchesAborted++;
    c.mixPrefetchHash(6, rid.hashCode());
    c.after(SyncPoint.S6);
  }
}
