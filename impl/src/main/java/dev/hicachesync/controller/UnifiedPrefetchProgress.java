package dev.hicachesync.controller;

import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sync.SyncPoint;

/**
 * {@code check_prefetch_progress} of {@code unified} ({@code unified_radix_cache.py::check_prefetch_progress},
 * {@code _can_terminate_prefetch} @later, #36425; HiCacheUnified.tla {@code SchedAdmit}, {@code
 * S4Complete}): {@code operation.is_terminated() or _can_terminate_prefetch(op)}. {@code best_effort} stops
 * at once, {@code wait_complete} never here (it completes through the ack drain, {@link UnifiedEventCheck}),
 * {@code timeout} asks S4, the MAX of the ranks' local timeouts. A stopped prefetch inserts the synced pages
 * it has (no S5 here: the completion acks were synced already).
 *
 * <p>Failure path (#36425 with a rank-local terminate, fault {@code localTerminate}): a failed read marks the
 * operation terminated on that rank only, its short-circuit skips S4 while the peers enter it: the peers wait
 * in S4 for a rank that has moved on (a hang, named by the fabric as a mismatch or a timeout). Without the
 * fault {@code is_terminated()} is set only at synced points, when the operation leaves {@code
 * ongoing_prefetch}.
 *
 * <p>Failure path (HiCacheUnifiedPP.tla's Ready {@code thread}, the PP-ticket hypothesis of #36700 whose sync
 * thread writes {@code operation.completed_tokens}; fault {@code threadReadiness}): under {@code wait_complete}
 * the operation counts as done once this rank's completion-sync thread has queued its final batch ack, before
 * the scheduler drains it, so each stage admits at the step its own thread got there (the stages' threads sync
 * at one moment, which falls in different steps of stages that are not in lockstep: TreeAgreement by step).
 * Scheduler thread only.
 */
final class UnifiedPrefetchProgress {
  private final RankState s;
  private final UnifiedSettle settle;

  UnifiedPrefetchProgress(RankState s, UnifiedSettle settle) {
    this.s = s;
    this.settle = settle;
  }

  boolean run(String rid) {
    PrefetchOperation op = s.prefetches().get(rid);
    if (op == null) {
      return true; // none, revoked, or inserted at its final ack
    }
    boolean isTerminated = s.faults().localTerminate() && op.ioFailed(); // rank-local only under the fault
    if (isTerminated || s.config().prefetchPolicy() == PrefetchPolicy.BEST_EFFORT) {
      settle.terminate(op, PrefetchState.TERMINATED);
      return true;
    }
    if (s.config().prefetchPolicy() == PrefetchPolicy.WAIT_COMPLETE) {
      if (s.faults().threadReadiness() && op.finalAckQueued()) { // done by this rank's thread, not by the drain
        settle.terminate(op, PrefetchState.INSERTED); // the synced pages drained so far; the drain then only frees
        return true;
      }
      return false;
    }
    long limit = s.config().timeoutBaseTicks() + s.config().timeoutTicksPer1024() * op.tokens().length / 1024;
    boolean timedOut = s.env().clock().ticks() - op.issueTick() >= limit; // this rank's clock: S4 makes it common
    boolean stop = s.sync().reduce(SyncPoint.S4, ReduceOp.MAX, new long[] {timedOut ? 1 : 0})[0] == 1;
    s.after(SyncPoint.S4);
    if (!stop) {
      return false;
    }
    settle.terminate(op, PrefetchState.TERMINATED);
    return true;
  }
}
