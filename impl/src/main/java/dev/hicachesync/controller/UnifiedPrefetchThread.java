package dev.hicachesync.controller;

import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.env.TransferKind;
import dev.hicachesync.sync.SyncPoint;
import java.util.ArrayList;
import java.util.List;

/**
 * The storage threads of {@code unified}, one pass: the prefetch thread's S7 for every queued operation,
 * then the completion-sync thread's MIN of one batch ack per read in flight (#27010).
 *
 * <ul>
 *   <li>S7 ({@code cache_controller.py::prefetch_thread_func} @db570fe6; HiCacheUnified.tla {@code PfQuery},
 *       {@code S7Complete}, {@code PfPutHit}): the leading pages this rank's storage holds, 0 for an
 *       operation the scheduler already stopped, MIN-reduced on the thread's own group; the outcome only
 *       records the hit and goes into the hit queue, ready once it reaches this rank's scheduler side (a
 *       storage-query latency, rank-local). No host memory and no revoke here: the scheduler decides both
 *       at the hit drain. With stage 0's prefetch tickets ({@link PpPrefetchTicket}, #36700) only stage 0
 *       queries and reduces (over its own stage), and a later stage takes the ticket's hit.
 *   <li>Completion sync ({@code prefetch_sync_thread_func}, {@code _reduce_prefetch_ack} @later;
 *       {@code PfRead}, {@code SyncComplete}, {@code PutAck}): the I/O thread emits one ack per batch, also
 *       after a failure or a stop (then 0 pages); the thread MIN-reduces the k-th ack of every rank and
 *       queues the result. It waits for this rank's own batch (the thread blocks on its queue), so every rank
 *       reduces the same number of acks: one per read in flight per pass, in hit-drain order.
 * </ul>
 *
 * <p>Two threads, two sets of groups, as in SGLang ({@code prefetch_hits_sync_groups} and {@code
 * prefetch_completion_sync_groups}, each made by {@code _create_sync_groups()}, hits first, on every rank):
 * S7 reduces on {@link RankState#prefetchSync()}, the completion sync on {@link
 * RankState#completionSync()}. Free-running, the two race each other on every rank; on one set of
 * groups each rank would interleave them its own way (CollectiveMatching, {@code FreeRunningServingLoopTest}).
 * What the completion sync reduces in a pass is picked by the scheduler ({@link #takeCompletionBatches}), so
 * every rank reduces the same batches in the same order however its threads run. Stepped (the simulator),
 * the pass runs S7 and then the completion sync, as before.
 */
final class UnifiedPrefetchThread {
  private final RankState s;
  private final UnifiedState unified;
  /** The thread ended on a raising storage query ({@link ControllerFaults#pfRaiseThreadDies}): no S7 runs again. */
  private boolean dead;

  UnifiedPrefetchThread(RankState s, UnifiedState unified) {
    this.s = s;
    this.unified = unified;
  }

  /**
   * Queues the S7 outcome after {@code queries} storage-query latencies (one normally; more on a late PP
   * stage, {@link ControllerFaults#lateDeposits()}: its thread reaches {@code prefetch_hit_queue.put} later).
   */
  private void deposit(int queries, Runnable done) {
    s.env().background(TransferKind.STORAGE_READ, 0, ok -> {
      if (queries <= 1) {
        done.run();
      } else {
        deposit(queries - 1, done);
      }
    });
  }

  /** S7 and then the completion sync of this pass's batches, on the caller's thread (no threads attached). */
  void run() {
    runS7();
    List<Pick> picks = takeCompletionBatches();
    if (!picks.isEmpty()) {
      runCompletionSync(picks);
    }
  }

  /** One batch ack of one read, for the completion-sync thread to reduce. */
  record Pick(PrefetchOperation op, int batch) {}

  /** S7 for every queued operation. Prefetch thread. */
  void runS7() {
    PrefetchOperation op;
    while (!dead && (op = s.prefetches().pollS7()) != null) {
      PpPrefetchTicket ticket = s.ppPrefetchTicket();
      int hit;
      if (ticket != null && !ticket.isSource() && !ticket.ownHit()) {
        hit = ticket.take(op); // a later stage's ticket worker: stage 0's hit, no query of its own
      } else {
        int local = op.terminatedByScheduler() ? 0 : storageHitQuery(op);
        if (dead) {
          return; // the query raised and ended the thread: this operation is never reduced on this rank
        }
        hit = ticket != null && !ticket.isSource() ? local // own_hit: this stage's own count, no collective
            : (int) s.prefetchSync().reduce(SyncPoint.S7, ReduceOp.MIN, new long[] {local})[0];
        if (ticket != null && ticket.isSource()) {
          ticket.submit(op, hit);
        }
      }
      op.hitSynced(hit);
      op.moveTo(PrefetchState.HIT_SYNCED);
      s.hashes().mixPrefetch(3, op.rid().hashCode(), hit);
      ReadyQueue.Entry<PrefetchOperation> entry = unified.putHit(op); // prefetch_hit_queue.put
      s.after(SyncPoint.S7);
      s.prefetches().outcomeSent();
      PrefetchOperation o = op;
      deposit(s.faults().lateDeposits() ? ControllerFaults.LATE_DEPOSIT_QUERIES : 1, () -> {
        s.prefetches().outcomeDeposited();
        o.markDeposited();
        entry.markReady();
      });
    }
  }

  /**
   * The leading pages of {@code op} this rank's storage holds ({@code _storage_hit_query}, {@code batch_exists}).
   * A query that raises (spec action {@code PfRaise}, knob {@code pf_raise}) counts as 0 hit pages, the fix; with
   * bug {@code PFDIE} ({@link ControllerFaults#pfRaiseThreadDies}) it ends the thread instead, as {@code
   * prefetch_thread_func}'s loop, which catches only {@code queue.Empty}, did: a peer's S7 for the operation then
   * waits for ever (the fabric's timeout here). Prefetch thread.
   */
  private int storageHitQuery(PrefetchOperation op) {
    try {
      return Math.min(op.keys().size(), s.storage().backend().leadingHits(op.keys()));
    } catch (RuntimeException raised) {
      dead = s.faults().pfRaiseThreadDies();
      return 0;
    }
  }

  /**
   * This pass's completion-sync work: the next batch of every read in flight, in hit-drain order; a read
   * whose last batch is picked leaves the list. Scheduler thread (the only one that touches {@code reading}),
   * so every rank picks the same batches at the same step.
   */
  List<Pick> takeCompletionBatches() {
    int batch = s.config().ioBatchPages();
    List<Pick> picks = new ArrayList<>();
    for (PrefetchOperation r : unified.reads()) {
      picks.add(new Pick(r, r.pickBatch()));
      if (r.allBatchesPicked(batch)) {
        unified.lastBatchPicked(r);
      }
    }
    return picks;
  }

  /** MIN-reduces the picked batch acks, in order, and queues each result. Completion-sync thread. */
  void runCompletionSync(List<Pick> picks) {
    int batch = s.config().ioBatchPages();
    for (Pick p : picks) {
      PrefetchOperation r = p.op();
      int from = p.batch() * batch;
      int to = Math.min(from + batch, r.hitPages());
      s.env().awaitCondition(() -> r.completedPages() >= to || !r.reading()); // this rank's batch landed or stopped
      long local = r.completedPages() >= to ? to - from : 0; // 0 once this rank's reader failed or stopped
      int pages = (int) s.completionSync().reduce(SyncPoint.S5, ReduceOp.MIN, new long[] {local})[0];
      unified.putAck(new UnifiedState.BatchAck(r, pages)); // ack_prefetch_queue.put
      if (to >= r.hitPages()) {
        r.markFinalAckQueued(); // read only under ControllerFaults#threadReadiness
      }
      s.after(SyncPoint.S5);
    }
  }
}
