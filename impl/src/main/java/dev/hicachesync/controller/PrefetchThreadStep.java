package dev.hicachesync.controller;

import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.env.TransferKind;
import dev.hicachesync.sync.SyncPoint;
import dev.hicachesync.tree.Mix64;
import java.util.Arrays;

/**
 * S7, the prefetch thread ({@code prefetch_thread_func}): for each issued operation, the leading pages this
 * rank's storage holds are MIN-reduced on the thread's own group; below {@code prefetch_threshold} the
 * operation is revoked (revoke queue + every slot to the release queue), else the slots past the hit go to
 * the release queue and the I/O thread reads the hit batch by batch.
 *
 * <p>The outcome reaches the scheduler after this rank's storage query latency ("deposit"), so queue
 * sizes differ per rank until S3 reduces them. Failure path: a local hit count makes one rank read what
 * another revokes (B1's L3 variant; B7 with per-stage storage). Prefetch thread only (the I/O callbacks run
 * where the environment runs them).
 */
final class PrefetchThreadStep {
  private final CacheController c;

  PrefetchThreadStep(CacheController c) {
    this.c = c;
  }

  void run() {
    PrefetchOperation op;
    while ((op = c.prefetchQueue.poll()) != null) {
      int local = Math.min(op.keys.length, c.storage.leadingHits(Arrays.asList(op.keys)));
      int hit = (int) c.prefetchSync.reduce(SyncPoint.S7, ReduceOp.MIN, new long[] {local})[0];
      op.hitPages = hit;
      op.revoked = (long) hit * c.config.pageSize() < c.config.prefetchThresholdTokens();
      op.state = op.revoked ? PrefetchState.REVOKED : PrefetchState.HIT_SYNCED;
      if (op.revoked) {
        c.stats.prefetchesRevoked++;
      }
      c.prefetchHash = Mix64.mix(Mix64.mix(Mix64.mix(c.prefetchHash, 3), op.rid.hashCode()), hit);
      // Appended now, in S7 order (the prefetch thread is sequential); ready when the outcome lands here.
      if (op.revoked) {
        op.s7Release = c.hostReleaseQueue.add(op.hostPages.clone());
        op.revokeEntry = c.revokeQueue.add(op.rid);
      } else if (hit < op.hostPages.length) {
        op.s7Release = c.hostReleaseQueue.add(Arrays.copyOfRange(op.hostPages, hit, op.hostPages.length));
      }
      if (op.terminatedByScheduler()) {
        c.releaseTail(op); // stopped (S5/S6) before its S7: the hit's slots go back too, in S7 order
      }
      c.after(SyncPoint.S7);
      PrefetchOperation o = op;
      c.undeposited++;
      c.env.background(TransferKind.STORAGE_READ, 0, ok -> deposit(o));
    }
  }

  /** The S7 outcome reaches this rank's scheduler side. */
  private void deposit(PrefetchOperation op) {
    op.deposited = true;
    c.undeposited--;
    if (op.s7Release != null) {
      op.s7Release.ready = true;
    }
    if (op.revokeEntry != null) {
      op.revokeEntry.ready = true;
    }
    if (op.revoked || op.terminatedByScheduler() || op.hitPages == 0) {
      c.updateTail(op);
      return;
    }
    op.state = PrefetchState.READING;
    issueBatch(op);
  }

  private void issueBatch(PrefetchOperation op) {
    int from = op.completedPages;
    int n = Math.min(c.config.ioBatchPages(), op.hitPages - from);
    op.reading = true;
    c.host.markBusy(op.hostPages, from, from + n);
    c.env.background(TransferKind.STORAGE_READ, n, ok -> onBatch(op, from, n, ok));
  }

  /** One batch landed (or failed) in the host slots; the I/O thread goes on unless stopped. */
  private void onBatch(PrefetchOperation op, int from, int n, boolean ok) {
    c.host.clearBusy(op.hostPages, from, from + n);
    op.reading = false;
    if (ok && c.readPages(op, from, from + n)) {
      op.completedPages = from + n;
      c.stats.storageReadPages += n;
    } else {
      op.ioFailed = true;
      c.stats.storageReadFailures++;
    }
    if (!op.ioFailed && !op.terminatedByScheduler() && op.completedPages < op.hitPages) {
      issueBatch(op);
    } else {
      c.updateTail(op);
    }
  }
}
