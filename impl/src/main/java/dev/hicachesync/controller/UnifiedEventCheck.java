package dev.hicachesync.controller;

import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import dev.hicachesync.sync.SyncPoint;

/**
 * S123 of {@code unified} ({@code unified_radix_cache.py::check_hicache_events},
 * {@code _sync_hicache_ready_counts} @db570fe6; HiCacheUnified.tla {@code SchedEvents}, {@code
 * EventsComplete}): one MIN vector per step, {@code [write acks, load acks, <hit queue, ack-prefetch queue,
 * backup acks, host releases>, digest, -digest]}, the storage part present <b>only while storage is
 * enabled</b> on this rank; then every rank pops exactly the MIN of each queue, in the spec's order: write
 * acks, load acks, the hit drain (host memory allocated now, or the prefetch revoked), the ack drain (synced
 * pages applied; on a final ack a prefetch still ongoing is inserted, which is how {@code wait_complete}
 * completes), backup acks, host releases.
 *
 * <p>The digest pair is the tree's mutation hash (#33777's digest conjunct): MIN of {@code d} and of {@code
 * -d} both equal this rank's values iff every rank sent the same {@code d}, so a tree that diverged is
 * named ({@code TreeAgreement}) at the next S123 instead of hours later.
 *
 * <p>Failure paths: a rank whose storage part is missing (a runtime attach that failed there, F1) sends a
 * shorter vector ({@code CollectiveMatching}); B3 and B5 as in {@link CheckHicacheEvents}; with the PD-decode fault a rank whose own load event is done
 * runs an extra S2 its peers never join (#29483). Scheduler thread only.
 */
final class UnifiedEventCheck {
  private final RankState s;
  private final UnifiedState unified;
  private final UnifiedSettle settle;
  private final UnifiedReads reads;

  UnifiedEventCheck(RankState s, UnifiedState unified, UnifiedSettle settle, UnifiedReads reads) {
    this.s = s;
    this.unified = unified;
    this.settle = settle;
    this.reads = reads;
  }

  void run() {
    UnifiedState u = unified;
    boolean st = s.storage().active();
    // non-negative, and -d does not overflow; the spec's constant pair where the replay compares on its behaviour
    long d = s.faults().constantDigestPair() ? 0 : s.tree().mutationHash() >>> 2;
    int extra = st ? u.extraHostPools() : 0; // one release-queue size per extra host pool, after the KV pool's
    long[] local = st
        ? new long[8 + extra]
        : new long[] {s.acks().writesDone(), s.acks().loadsDone(), d, -d};
    if (st) {
      long[] head = {s.acks().writesDone(), s.acks().loadsDone(), u.hitsReady(), u.acksReady(),
          s.queues().backupAcksReady(), s.queues().releasesReady()};
      System.arraycopy(head, 0, local, 0, head.length);
      local[6 + extra] = d;
      local[7 + extra] = -d;
    }
    if (local[0] == 0 && s.faults().skipIdleWriteCheck()) {
      return; // B3 in the fused form
    }
    long[] n = s.sync().reduce(SyncPoint.S123, ReduceOp.MIN, local);
    if (s.faults().unsyncedLoadingCheck()) {
      n[1] = local[1]; // B5: the load count taken from this rank alone
    }
    int k = n.length;
    if (n[k - 2] != d || n[k - 1] != -d) {
      throw new InvariantViolation(Invariant.TreeAgreement, "S123 digest conjunct: this rank's tree digest "
          + d + " is not every rank's (MIN " + n[k - 2] + ", MAX " + -n[k - 1] + ")");
    }
    s.acks().popWrites((int) n[0]);
    s.acks().popLoads((int) n[1]);
    if (st) {
      ownQueuesHold(n);
      drainHits((int) n[2]);
      drainAcks((int) n[3]);
      s.queues().drain(0, (int) n[4], (int) n[5]);
      s.writes().flushPendingWrites(); // buffer_only: write staging after the drains (BufFlush)
    }
    s.after(SyncPoint.S123);
    if (s.faults().loadReadinessBeforeMin()) {
      pdDecodeLoadBack();
    }
  }

  /**
   * Under PP a later stage drains stage 0's forwarded counts (the SyncLayer forwards S123,
   * HiCacheUnifiedPipeline.tla {@code SchedRecvPipe}), which its own storage threads may not have queued
   * yet. The protocol waits until they have (this stage's threads queue the same entries: S7 and the
   * completion MIN span the pp group); with {@link ControllerFaults#ppDrainNowait()} the counts are cut to
   * what is queued, as {@code _drain_queue}'s {@code get_nowait} does (bug NOWAIT, F2). On stage 0 both are
   * no-ops: its counts are a MIN that includes its own.
   */
  private void ownQueuesHold(long[] n) {
    UnifiedState u = unified;
    if (s.faults().ppDrainNowait()) {
      n[2] = Math.min(n[2], u.hitsReady());
      n[3] = Math.min(n[3], u.acksReady());
      n[4] = Math.min(n[4], s.queues().backupAcksReady());
      n[5] = Math.min(n[5], s.queues().releasesReady());
      return;
    }
    int hits = (int) n[2];
    int acks = (int) n[3];
    s.env().awaitCondition(() -> u.hitsReady() >= hits && u.acksReady() >= acks);
  }

  /**
   * {@code _drain_and_alloc_storage_hit} / {@code _try_alloc_storage_hit} @db570fe6 (HiCacheUnified.tla
   * {@code DrainHit}): below the threshold, stopped, or the host pool short: revoke; else allocate the hit's
   * slots now and start reading. Buffer-only host memory (#34798): hits parked at earlier drains are retried
   * first, in order, up to the first that still cannot get its slots; then each new hit is tried as in
   * cache mode (it may get slots a parked, larger hit could not: SGLang does not hold it back either), and
   * one the pool cannot serve is parked behind them instead of revoked. The pool changes only on this thread at synced points, so every
   * rank parks and grants the same hits (HiCacheUnified.tla {@code BufRetry}, {@code BufShort};
   * {@code unified_buffer_park} holds, {@code unified_buffer_stage_local} shows the contract broken).
   */
  private void drainHits(int n) {
    retryParked();
    for (int i = 0; i < n; i++) {
      PrefetchOperation op = unified.pollHit();
      if (op.terminatedByScheduler() || op.hitPages() == 0
          || (long) op.hitPages() * s.config().pageSize() < s.config().prefetchThresholdTokens()) {
        if (!op.terminatedByScheduler()) {
          settle.revoke(op);
        }
        continue;
      }
      if (!grant(op)) {
        if (unified.bufferOnly()) {
          park(op);
        } else {
          settle.revoke(op); // revoke_pending_prefetch: the pool is short (the same on every rank, INV-6)
        }
      }
    }
  }

  /** The parked hits first ({@code pending_hit_allocs}): drop the stopped ones, grant in order while slots last. */
  private void retryParked() {
    PrefetchOperation op;
    while ((op = unified.firstParked()) != null) {
      if (op.terminatedByScheduler() || !s.prefetches().isOngoing(op.rid())) {
        unified.dropFirstParked(); // S4, best_effort or an abort ended it meanwhile: it holds nothing
        continue;
      }
      if (!grant(op)) {
        return;
      }
      unified.dropFirstParked();
      s.stats().parkedHitGranted();
      s.hashes().mixPrefetch(20, op.rid().hashCode(), op.hitPages());
    }
  }

  private void park(PrefetchOperation op) {
    unified.park(op);
    s.stats().prefetchParked();
    s.hashes().mixPrefetch(21, op.rid().hashCode(), op.hitPages()); // a park one rank alone took shows as PrefetchAgreement
  }

  /** Allocates {@code op}'s hit slots and starts its reads; false when the pool cannot give them now. */
  private boolean grant(PrefetchOperation op) {
    int[] slots = s.pools().allocateHost(op.hitPages());
    if (slots == null) {
      return false;
    }
    op.grantSlots(slots);
    unified.startReading(op);
    reads.start(op);
    return true;
  }

  /**
   * {@code _drain_ack_prefetch} @later (HiCacheUnified.tla {@code DrainAck}): apply each synced batch ack;
   * on the final one a prefetch still ongoing is inserted with its synced pages, and the slots it does not
   * keep go to the host-release queue.
   */
  private void drainAcks(int n) {
    for (int i = 0; i < n; i++) {
      UnifiedState.BatchAck ack = unified.pollAck();
      PrefetchOperation op = ack.op();
      if (op.settledPages() < 0) {
        op.addSynced(ack.pages());
      }
      if (op.drainBatch(s.config().ioBatchPages())) {
        if (op.settledPages() < 0) {
          settle.terminate(op, PrefetchState.INSERTED);
        }
        settle.finalAck(op);
      }
    }
  }

  /**
   * The PD-decode fault (#29483 before its fix): {@code is_load_back_event_done} polls this rank's own load
   * event and, only when it is done, runs {@code loading_check}'s MIN (S2).
   */
  private void pdDecodeLoadBack() {
    int ready = s.acks().loadsDone();
    if (ready > 0) {
      long[] n = s.sync().reduce(SyncPoint.S2, ReduceOp.MIN, new long[] {ready});
      s.acks().popLoads((int) n[0]);
      s.after(SyncPoint.S2);
    }
  }
}
