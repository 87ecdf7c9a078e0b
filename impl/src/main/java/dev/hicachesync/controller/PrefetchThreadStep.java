package dev.hicachesync.controller;

import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.env.TransferKind;
import dev.hicachesync.sync.SpecStep;
import dev.hicachesync.sync.SyncPoint;
import java.util.Arrays;

/**
 * S7, the prefetch thread ({@code prefetch_thread_func}): for each issued operation, the leading pages this
 * rank's storage holds ({@link #storageHitQuery}, SGLang's {@code _storage_hit_query}) are MIN-reduced on the
 * thread's own group; below {@code prefetch_threshold} the operation is revoked (revoke queue + every slot to
 * the release queue), else the slots past the hit go to the release queue and the I/O thread reads the hit
 * batch by batch.
 *
 * <p>The outcome reaches the scheduler after this rank's storage query latency ("deposit"), so queue
 * sizes differ per rank until S3 reduces them. Failure path: a local hit count makes one rank read what
 * another revokes (B1's L3 variant; B7 with per-stage storage). Prefetch thread only (the I/O callbacks run
 * where the environment runs them).
 */
@SpecStep(SpecStep.Actor.PREFETCH_THREAD)
final class PrefetchThreadStep {
  private final RankState s;

  PrefetchThreadStep(RankState s) {
    this.s = s;
  }

  /** S7 for queued operations while {@link Prefetches#s7Done()} is below {@code doneBound}. */
  void run(int doneBound) {
    PrefetchOperation op;
    while (s.prefetches().s7Done() < doneBound && (op = s.prefetches().pollS7()) != null) {
      int local = storageHitQuery(op);
      int hit = (int) s.prefetchSync().reduce(SyncPoint.S7, ReduceOp.MIN, new long[] {local})[0];
      op.hitSynced(hit);
      op.setRevoked((long) hit * s.config().pageSize() < s.config().prefetchThresholdTokens());
      op.moveTo(op.revoked() ? PrefetchState.REVOKED : PrefetchState.HIT_SYNCED);
      if (op.revoked()) {
        s.stats().prefetchRevoked();
      }
      s.hashes().mixPrefetch(3, op.rid().hashCode(), hit);
      // Appended now, in S7 order (the prefetch thread is sequential); ready when the outcome lands here.
      if (op.revoked()) {
        op.s7Entries(s.queues().addRelease(op.hostPages().clone()), s.queues().addRevoke(op.rid()));
      } else if (hit < op.hostPages().length) {
        op.s7Entries(s.queues().addRelease(Arrays.copyOfRange(op.hostPages(), hit, op.hostPages().length)), null);
      }
      if (op.terminatedByScheduler()) {
        s.prefetches().releaseTail(op); // stopped (S5/S6) before its S7: the hit's slots go back too, in S7 order
      }
      s.after(SyncPoint.S7);
      s.prefetches().s7Finished(); // after this operation's release entries: see awaitHandedS7
      PrefetchOperation o = op;
      s.prefetches().outcomeSent();
      s.env().background(TransferKind.STORAGE_READ, 0, ok -> deposit(o));
    }
  }

  /** The leading pages of {@code op} that this rank's storage holds: S7's local value. */
  @SpecStep(SpecStep.Actor.PREFETCH_THREAD)
  private int storageHitQuery(PrefetchOperation op) {
    return Math.min(op.keys().size(), s.storage().backend().leadingHits(op.keys()));
  }

  /** The S7 outcome reaches this rank's scheduler side. */
  private void deposit(PrefetchOperation op) {
    boolean read = op.beginReading();
    s.prefetches().outcomeDeposited();
    op.markS7EntriesReady();
    if (!read) {
      s.prefetches().updateTail(op);
      return;
    }
    s.pools().host().markBusy(op.hostPages(), 0, batchEnd(s, op, 0));
    issueBatch(op, 0);
    if (s.sidecar() != null) {
      s.sidecar().startReads(op);
    }
  }

  /** Hands batch [from, batchEnd) to the I/O thread; its slots are already marked busy. */
  private void issueBatch(PrefetchOperation op, int from) {
    int to = batchEnd(s, op, from);
    s.env().background(TransferKind.STORAGE_READ, to - from, ok -> onBatch(op, from, to, ok));
  }

  /** One batch landed (or failed) in the host slots; the I/O thread goes on unless stopped. */
  private void onBatch(PrefetchOperation op, int from, int to, boolean ok) {
    boolean landed = ok && s.storage().readPages(op, from, to);
    if (landed) {
      s.stats().storageRead(to - from);
    } else {
      s.stats().storageReadFailed();
    }
    int next = landBatch(s, op, from, to, landed);
    if (next >= 0) {
      issueBatch(op, next);
    }
  }

  /** Returns the end of the batch that starts at page {@code from}. */
  static int batchEnd(RankState s, PrefetchOperation op, int from) {
    return Math.min(from + s.config().ioBatchPages(), op.hitPages());
  }

  /**
   * The I/O thread's side of the hand-off once batch [from, to) landed or failed: its slots are no longer
   * busy; either the next batch is in flight (its slots marked busy; returns its first page) or the reader
   * stopped and the tail, if the scheduler queued one, becomes ready (returns -1). I/O thread.
   */
  static int landBatch(RankState s, PrefetchOperation op, int from, int to, boolean landed) {
    s.pools().host().clearBusy(op.hostPages(), from, to);
    if (!op.batchLanded(to, landed)) {
      s.prefetches().updateTail(op);
      return -1;
    }
    s.pools().host().markBusy(op.hostPages(), to, batchEnd(s, op, to));
    return to;
  }
}
