package dev.hicachesync.controller;

import java.util.ArrayList;
import java.util.List;

/**
 * The queues and lists version {@code unified} adds to a rank's controller ({@code spec/HiCacheUnified.tla},
 * variables {@code q.hit}, {@code q.ack}, {@code storage}): the prefetch hit queue the S7 thread fills, the
 * ack-prefetch queue the completion-sync thread fills, the reads in flight, and whether storage is enabled.
 *
 * <p>Why a separate holder: the revoke queue is gone in {@code unified} and host memory is allocated at the
 * hit drain, so these queues have no meaning for the earlier versions; keeping them here leaves {@link
 * CacheController}'s fields as they were. Scheduler thread, except where a method says otherwise.
 */
final class UnifiedState {
  /** {@code prefetch_hit_queue}: S7 outcomes in S7 order, ready when the outcome reaches this rank. */
  final ReadyQueue<PrefetchOperation> hitQueue = new ReadyQueue<>();
  /** {@code ack_prefetch_queue}: synced batch acks in completion-sync order, ready when queued. */
  final ReadyQueue<BatchAck> ackQueue = new ReadyQueue<>();
  /** Operations whose reads the hit drain started and whose batches are not all synced yet, in drain order. */
  final List<PrefetchOperation> reading = new ArrayList<>();
  /**
   * Operations the hit drain started whose batch acks the scheduler has not all drained (they hold host
   * slots until their final ack, HiCacheUnified.tla {@code HeldByPrefetch}).
   */
  final List<PrefetchOperation> holding = new ArrayList<>();
  /**
   * {@code enable_storage} on this rank: the S123 vector has its storage part only while it is true (the
   * payload length depends on it; F1 in docs/explanation/findings/F1-attach-outcome-per-rank.md).
   */
  boolean storageEnabled;
  /**
   * {@code --hicache-host-memory-mode buffer_only} (#34798): a storage hit whose host slots cannot be
   * allocated at the hit drain is parked in {@link #parked} instead of revoked.
   */
  boolean bufferOnly;
  /**
   * {@code buffer_pipeline.pending_hit_allocs}: parked storage hits, FIFO, retried first at every hit drain
   * (HiCacheUnified.tla {@code BufRetry}; a prefetch parks in {@code pf.st = "parked"}).
   */
  final java.util.ArrayDeque<PrefetchOperation> parked = new java.util.ArrayDeque<>();

  /** One synced storage batch ack: the pages every rank completed in that batch (MIN). */
  record BatchAck(PrefetchOperation op, int pages) {}

  UnifiedState(boolean storageEnabled) {
    this.storageEnabled = storageEnabled;
  }
}
