package dev.hicachesync.controller;

import dev.hicachesync.sync.SyncPoint;

/**
 * {@code release_aborted_request} of {@code unified} ({@code unified_radix_cache.py::release_aborted_request}
 * @db570fe6; HiCacheUnified.tla {@code SchedAbortCheck}, {@code AbortBarrierComplete}): when the prefetch
 * holds host memory, the barrier {@code _barrier_attn_groups} (S6) first, then its synced pages go to the
 * host-release queue (the rest at its final ack); a prefetch without host memory is dropped at once and
 * its hit-queue entry is discarded at the drain. Whether it holds host memory was decided at the hit drain,
 * so every rank takes the same branch. Scheduler thread only.
 */
final class UnifiedReleaseAborted {
  private final RankState s;
  private final UnifiedSettle settle;

  UnifiedReleaseAborted(RankState s, UnifiedSettle settle) {
    this.s = s;
    this.settle = settle;
  }

  void run(String rid) {
    PrefetchOperation op = s.prefetches().get(rid);
    if (op == null) {
      return;
    }
    if (op.hostAllocated()) {
      s.sync().barrier(SyncPoint.S6);
    }
    settle.abort(op);
    s.after(SyncPoint.S6);
  }
}
