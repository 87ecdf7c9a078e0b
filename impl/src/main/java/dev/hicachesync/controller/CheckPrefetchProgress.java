package dev.hicachesync.controller;

import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sync.SpecStep;
import dev.hicachesync.sync.SyncPoint;
import java.util.Arrays;

/**
 * S5, {@code check_prefetch_progress}: once S4 lets the prefetch stop, every rank inserts exactly the MIN
 * over the sync domain of its completed tokens (with a sidecar pool, of {@code [KV tokens, sidecar tokens]}:
 * {@link SidecarPool#s5Value}) into the host tree under the anchor, frees the slots of
 * pages the tree already had, hands the rest back once its reader has stopped, and releases the anchor.
 *
 * <p>Failure path: inserting local progress gives ranks different host trees (INV-3, INV-5); handing back
 * slots a read is still writing breaks INV-7 (B7); a later PP stage blocks until its own read caught up.
 * Scheduler thread only.
 */
@SpecStep(SpecStep.Actor.SCHEDULER)
final class CheckPrefetchProgress {
  private final RankState s;
  private final CanTerminatePrefetch canTerminate;

  CheckPrefetchProgress(RankState s) {
    this.s = s;
    this.canTerminate = new CanTerminatePrefetch(s);
  }

  boolean run(String rid) {
    PrefetchOperation op = s.prefetches().get(rid);
    if (op == null) {
      return true; // none, or revoked and drained at S3
    }
    if (!canTerminate.run(op)) {
      return false;
    }
    int ps = s.config().pageSize();
    long local = op.deposited() && !op.revoked() ? (long) op.completedPages() * ps : 0;
    SidecarPool sidecar = s.sidecar();
    long[] agreed = s.sync().reduce(SyncPoint.S5, ReduceOp.MIN,
        sidecar == null ? new long[] {local} : sidecar.s5Value(op, local));
    int pages = (int) (Arrays.stream(agreed).min().orElse(0) / ps);
    if (pages > 0 && op.completedPages() < pages) {
      s.env().awaitCondition(() -> op.completedPages() >= pages); // later PP stage: block on its own reads
    }
    s.prefetches().awaitHandedS7(); // the tail below is queued after the same S7 entries on every rank
    op.moveTo(PrefetchState.TERMINATED);
    s.stats().prefetchTerminated();
    if (pages > 0) {
      s.data().path().checkHost(op.hostPages(), 0, pages, s.data().seeds(op), "S5 insert of prefetch " + rid);
      int present = s.tree().insertHost(op.anchor(), Arrays.copyOf(op.tokens(), pages * ps),
          Arrays.copyOf(op.hostPages(), pages));
      if (present > 0) {
        s.pools().freeHost(Arrays.copyOf(op.hostPages(), present), "S5 pages already in the tree");
      }
      s.stats().prefetchInserted(pages - present);
      s.prefetches().recordInserted(rid, (pages - present) * ps);
    }
    if (sidecar != null) {
      sidecar.checkCoverage(op, pages);
    }
    if (!op.revoked() && pages == op.hitPages()) {
      s.stats().prefetchCompleted();
    }
    op.stopAt(pages);
    s.prefetches().releaseTail(op);
    s.tree().releaseHost(op.anchor());
    s.prefetches().remove(rid);
    op.moveTo(PrefetchState.INSERTED);
    s.hashes().mixPrefetch(5, rid.hashCode(), pages);
    s.after(SyncPoint.S5);
    return true;
  }
}
