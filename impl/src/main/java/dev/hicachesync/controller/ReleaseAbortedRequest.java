package dev.hicachesync.controller;

import dev.hicachesync.sync.SpecStep;
import dev.hicachesync.sync.SyncPoint;

/**
 * S6, {@code release_aborted_request}: a barrier over the sync domain, then every rank stops the prefetch,
 * hands its host slots back once its reader has stopped and releases the anchor.
 *
 * <p>Failure path: without the barrier a rank can free slots its I/O thread still writes, and reuse them
 * for another request (INV-7). Scheduler thread only.
 */
@SpecStep(SpecStep.Actor.SCHEDULER)
final class ReleaseAbortedRequest {
  private final RankState s;

  ReleaseAbortedRequest(RankState s) {
    this.s = s;
  }

  void run(String rid) {
    PrefetchOperation op = s.prefetches().get(rid);
    if (op == null) {
      return;
    }
    s.sync().barrier(SyncPoint.S6);
    s.prefetches().awaitHandedS7(); // the tail below is queued after the same S7 entries on every rank
    op.moveTo(PrefetchState.ABORTED);
    op.stopAt(ReleaseWhole.scheduledPart(s, op));
    s.prefetches().releaseTail(op);
    s.tree().releaseHost(op.anchor());
    s.prefetches().remove(rid);
    s.stats().prefetchAborted();
    s.hashes().mixPrefetch(6, rid.hashCode());
    s.after(SyncPoint.S6);
  }
}
