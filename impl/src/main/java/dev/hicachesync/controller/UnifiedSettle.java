package dev.hicachesync.controller;

import java.util.Arrays;

/**
 * How a {@code unified} prefetch leaves {@code ongoing_prefetch} and gives its host slots back, shared by
 * the hit drain, the ack drain, S4 and S6 (HiCacheUnified.tla {@code Terminate}, {@code ReleasePf}, {@code
 * DrainAck}). Every decision here uses synced values only: the hit (S7), the synced pages applied from
 * drained acks, and the sync point that called it. Scheduler thread only.
 */
final class UnifiedSettle {
  private final RankState s;
  private final UnifiedState unified;

  UnifiedSettle(RankState s, UnifiedState unified) {
    this.s = s;
    this.unified = unified;
  }

  /**
   * Stops {@code op} keeping its synced pages: they are inserted into the host tree under the anchor
   * ({@code _handle_prefetch_result}); the slots past them stay the prefetch's until its final ack.
   */
  void terminate(PrefetchOperation op, PrefetchState how) {
    int pages = op.hostAllocated() ? op.syncedPages() : 0;
    if (pages > 0) {
      int ps = s.config().pageSize();
      s.data().path().checkHost(op.hostPages(), 0, pages, s.data().seeds(op), "insert of prefetch " + op.rid());
      int present = s.tree().insertHost(op.anchor(), Arrays.copyOf(op.tokens(), pages * ps),
          Arrays.copyOf(op.hostPages(), pages));
      if (present > 0) {
        s.pools().freeHost(Arrays.copyOf(op.hostPages(), present), "prefetched pages already in the tree");
      }
      s.stats().prefetchInserted(pages - present);
      s.prefetches().recordInserted(op.rid(), (pages - present) * ps);
    }
    if (op.hostAllocated() && pages == op.hitPages()) {
      s.stats().prefetchCompleted();
    }
    s.stats().prefetchTerminated();
    leave(op, how, pages);
  }

  /**
   * Aborts {@code op} (S6 decided it): the pages read and synced so far go to the host-release queue at
   * once, the rest at its final ack.
   */
  void abort(PrefetchOperation op) {
    int pages = op.hostAllocated() ? op.syncedPages() : 0;
    release(op, 0, pages);
    s.stats().prefetchAborted();
    leave(op, PrefetchState.ABORTED, pages);
  }

  /** Revokes {@code op} at the hit drain (below the threshold, stopped, or the host pool is short). */
  void revoke(PrefetchOperation op) {
    op.setRevoked(true);
    s.stats().prefetchRevoked();
    leave(op, PrefetchState.REVOKED, 0);
  }

  /** The final batch ack was drained: the slots the prefetch kept no claim on go back. */
  void finalAck(PrefetchOperation op) {
    unified.finalAckDrained(op);
    release(op, op.settledPages(), op.hitPages());
  }

  /** Queues host slots [from, to) for release at a later S123 (ready at once: no read writes them now). */
  private void release(PrefetchOperation op, int from, int to) {
    if (to > from) {
      s.queues().addRelease(Arrays.copyOfRange(op.hostPages(), from, to)).markReady();
    }
  }

  private void leave(PrefetchOperation op, PrefetchState how, int kept) {
    op.settle(kept);
    op.stopAt(kept); // the I/O thread stops at its next batch
    op.moveTo(how);
    if (s.prefetches().remove(op.rid()) != null) {
      s.tree().releaseHost(op.anchor());
    }
    s.hashes().mixPrefetch(8 + how.ordinal(), op.rid().hashCode(), kept);
  }
}
