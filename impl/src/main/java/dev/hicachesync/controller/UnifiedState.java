package dev.hicachesync.controller;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The queues and lists version {@code unified} adds to a rank's controller ({@code spec/HiCacheUnified.tla},
 * variables {@code q.hit}, {@code q.ack}, {@code storage}): the prefetch hit queue the S7 thread fills, the
 * ack-prefetch queue the completion-sync thread fills, the reads in flight, and whether storage is enabled.
 *
 * <p>Why a separate holder: the revoke queue is gone in {@code unified} and host memory is allocated at the
 * hit drain, so these queues have no meaning for the earlier versions; keeping them here leaves the
 * shared holders ({@link RankState}) as they are for every version. Scheduler thread, except where a method says otherwise.
 */
final class UnifiedState {
  /** {@code prefetch_hit_queue}: S7 outcomes in S7 order, ready when the outcome reaches this rank. */
  private final ReadyQueue<PrefetchOperation> hitQueue = new ReadyQueue<>();
  /** {@code ack_prefetch_queue}: synced batch acks in completion-sync order, ready when queued. */
  private final ReadyQueue<BatchAck> ackQueue = new ReadyQueue<>();
  /** Operations whose reads the hit drain started and whose batches are not all synced yet, in drain order. */
  private final List<PrefetchOperation> reading = new ArrayList<>();
  /**
   * Operations the hit drain started whose batch acks the scheduler has not all drained (they hold host
   * slots until their final ack, HiCacheUnified.tla {@code HeldByPrefetch}).
   */
  private final List<PrefetchOperation> holding = new ArrayList<>();
  /**
   * {@code --hicache-host-memory-mode buffer_only} (#34798): a storage hit whose host slots cannot be
   * allocated at the hit drain is parked in {@link #parked} instead of revoked.
   */
  private boolean bufferOnly;
  /**
   * {@code buffer_pipeline.pending_hit_allocs}: parked storage hits, FIFO, retried first at every hit drain
   * (HiCacheUnified.tla {@code BufRetry}; a prefetch parks in {@code pf.st = "parked"}).
   */
  private final ArrayDeque<PrefetchOperation> parked = new ArrayDeque<>();

  /** One synced storage batch ack: the pages every rank completed in that batch (MIN). */
  record BatchAck(PrefetchOperation op, int pages) {}

  // ---------------------------------------------------------------- the hit queue

  /** {@code prefetch_hit_queue.put}: ready once the outcome reaches this rank. Prefetch thread. */
  ReadyQueue.Entry<PrefetchOperation> putHit(PrefetchOperation op) {
    return hitQueue.add(op);
  }

  int hitsReady() {
    return hitQueue.leadingReady();
  }

  PrefetchOperation pollHit() {
    return hitQueue.poll();
  }

  // ---------------------------------------------------------------- the ack-prefetch queue

  /** {@code ack_prefetch_queue.put}: ready at once. Completion-sync thread. */
  void putAck(BatchAck ack) {
    ackQueue.add(ack).markReady();
  }

  int acksReady() {
    return ackQueue.leadingReady();
  }

  BatchAck pollAck() {
    return ackQueue.poll();
  }

  // ---------------------------------------------------------------- reads and the slots they hold

  /** The hit drain started {@code op}'s reads: reading, and holding its slots until its final ack. */
  void startReading(PrefetchOperation op) {
    reading.add(op);
    holding.add(op);
  }

  /** The reads in flight, in hit-drain order (a copy). */
  List<PrefetchOperation> reads() {
    return new ArrayList<>(reading);
  }

  /** {@code op}'s last batch was picked for the completion sync. */
  void lastBatchPicked(PrefetchOperation op) {
    reading.remove(op);
  }

  /** {@code op}'s final batch ack was drained: it holds no slots any more. */
  void finalAckDrained(PrefetchOperation op) {
    holding.remove(op);
  }

  // ---------------------------------------------------------------- buffer-only host memory

  boolean bufferOnly() {
    return bufferOnly;
  }

  void parkHits() {
    bufferOnly = true;
  }

  void park(PrefetchOperation op) {
    parked.addLast(op);
  }

  /** The oldest parked hit, or null. */
  PrefetchOperation firstParked() {
    return parked.peekFirst();
  }

  void dropFirstParked() {
    parked.pollFirst();
  }

  // ---------------------------------------------------------------- extra host pools

  /**
   * {@code extra_host_mem_release_queues}: host pools beside the KV pool (a sidecar of a layer kind this stage
   * holds), each with a release queue whose size is one entry of S123's storage part. Stages hold different
   * layers, so with PP their counts, and the vector's length, may differ (HiCacheUnifiedPipeline.tla's Knob
   * {@code stage_extra_pools}); their releases are not modelled: the entries count 0.
   */
  private int extraHostPools;

  void extraHostPools(int pools) {
    extraHostPools = pools;
  }

  int extraHostPools() {
    return extraHostPools;
  }

    // ---------------------------------------------------------------- quiet?

  /** Whether no hit or ack waits for the drain, no read is in flight and none holds slots. */
  boolean settled() {
    return hitQueue.size() == 0 && ackQueue.size() == 0 && reading.isEmpty() && holding.isEmpty();
  }

  /** What is still queued or held once the rank should be quiet, or null when nothing is. */
  String undrained() {
    int hits = hitQueue.size();
    int acks = ackQueue.size();
    if (hits + acks == 0 && holding.isEmpty()) {
      return null;
    }
    return "hit " + hits + ", ack-prefetch " + acks + ", prefetches holding host slots " + holding.size();
  }
}
