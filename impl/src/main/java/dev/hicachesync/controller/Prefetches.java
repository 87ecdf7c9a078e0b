package dev.hicachesync.controller;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One rank's storage prefetches: {@code ongoing_prefetch} (insertion-ordered, so that every rank iterates it
 * alike), the operations waiting for the prefetch thread (S7), how far the passes handed to that thread got,
 * the S7 outcomes not yet deposited here, and the tokens each finished prefetch inserted.
 *
 * <p>Threads: the ongoing map, the hand-over counts and the inserted tokens are the scheduler's. The S7
 * queue has one producer (the scheduler, at issue) and one consumer (the prefetch thread): a concurrent
 * queue, since free-running the two race. {@code s7Done} and {@code undeposited} are counted by the
 * prefetch and I/O threads and read by the scheduler: atomic.
 */
final class Prefetches {
  private final RankState s;
  private final Map<String, PrefetchOperation> ongoing = new LinkedHashMap<>();
  private final Queue<PrefetchOperation> s7Queue = new ConcurrentLinkedQueue<>();
  /**
   * Operations queued for S7 so far ({@link IssuePrefetch}) and how many of them the passes handed to the
   * prefetch thread cover: a pass takes exactly the operations queued when the scheduler hands it over, never
   * one queued while it runs, so every rank's passes hold the same operations (as stepped ones do).
   * Scheduler thread. Not used by version {@code unified}.
   */
  private int s7Queued;
  private int s7Handed;
  /**
   * Operations whose S7 the prefetch thread has finished, release-queue entries included: the prefetch
   * thread increments, the scheduler waits on it before a stop that may queue a tail ({@link #awaitHandedS7}).
   */
  private final AtomicInteger s7Done = new AtomicInteger();
  /**
   * S7 outcomes decided but not yet deposited on this rank: the prefetch thread increments, the prefetch
   * I/O thread decrements, the scheduler reads.
   */
  private final AtomicInteger undeposited = new AtomicInteger();
  /** Tokens each request's prefetch inserted, until its admission asks (hit statistics). */
  private final Map<String, Integer> insertedTokens = new HashMap<>();

  Prefetches(RankState s) {
    this.s = s;
  }

  // ---------------------------------------------------------------- ongoing_prefetch, scheduler thread

  PrefetchOperation get(String rid) {
    return ongoing.get(rid);
  }

  boolean isOngoing(String rid) {
    return ongoing.containsKey(rid);
  }

  /** Issues {@code op}: ongoing from now on and queued for S7. */
  void issue(PrefetchOperation op) {
    ongoing.put(op.rid(), op);
    s7Queue.add(op);
  }

  /** Issues {@code op} and counts it for the next pass handed to the prefetch thread. */
  void issueForNextPass(PrefetchOperation op) {
    issue(op);
    s7Queued++;
  }

  /** Removes request {@code rid}'s prefetch from {@code ongoing_prefetch}; returns it, or null. */
  PrefetchOperation remove(String rid) {
    return ongoing.remove(rid);
  }

  Collection<PrefetchOperation> ongoing() {
    return Collections.unmodifiableCollection(ongoing.values());
  }

  Set<String> ongoingIds() {
    return Collections.unmodifiableSet(ongoing.keySet());
  }

  /** Whether none is ongoing and none waits for S7. */
  boolean idle() {
    return ongoing.isEmpty() && s7Queue.isEmpty();
  }

  void recordInserted(String rid, int tokens) {
    insertedTokens.put(rid, tokens);
  }

  /** Returns and forgets the tokens request {@code rid}'s prefetch inserted into the tree (0 if none). */
  int takeInserted(String rid) {
    Integer t = insertedTokens.remove(rid);
    return t == null ? 0 : t;
  }

  // ---------------------------------------------------------------- the S7 queue and its passes

  /** The next operation waiting for S7, or null. Prefetch thread. */
  PrefetchOperation pollS7() {
    return s7Queue.poll();
  }

  boolean s7QueueEmpty() {
    return s7Queue.isEmpty();
  }

  int s7QueueSize() {
    return s7Queue.size();
  }

  /**
   * Hands the operations queued so far to the next pass; returns the pass's bound on the S7s done, or -1
   * when nothing new is queued. Scheduler thread.
   */
  int handQueuedToS7() {
    if (s7Handed == s7Queued) {
      return -1;
    }
    s7Handed = s7Queued;
    return s7Handed;
  }

  /** The S7s the prefetch thread has finished. */
  int s7Done() {
    return s7Done.get();
  }

  /** One more operation's S7 finished, its release entries queued. Prefetch thread. */
  void s7Finished() {
    s7Done.incrementAndGet();
  }

  /**
   * Free-running: waits until the prefetch thread has finished S7 for every operation handed to it so far,
   * before the scheduler stops a prefetch (S5/S6). Why: the host-release queue has two producers, the
   * prefetch thread (S7's slots past the hit, in S7 order) and the scheduler (the tail of a stopped
   * prefetch); S3 pops the MIN count of whole entries, so their order must be the same on every rank.
   * Without this wait a rank whose S7 had run queued the tail after the S7 entries of the pass, a rank whose
   * S7 had not run got it queued by the prefetch thread right after the operation's own entry, and S3 freed
   * different slots (and page counts) per rank: TreeAgreement, about 1 run in 80 of
   * {@code FreeRunningServingLoopTest.mergedOnCp2Tp2}. SGLang avoids the count divergence differently
   * ({@code append_host_mem_release} queues one entry per page; the slots each rank frees may still differ,
   * which SGLang does not compare); see docs/explanation/concurrency.md. Stepped and inline the passes are already done
   * when the scheduler gets here: no wait. Scheduler thread.
   */
  void awaitHandedS7() {
    ControllerThreads threads = s.threads();
    if (threads != null && !threads.isStepped()) {
      int handed = s7Handed;
      threads.awaitCondition(() -> s7Done.get() >= handed);
    }
  }

  // ---------------------------------------------------------------- S7 outcomes on their way here

  void outcomeSent() {
    undeposited.incrementAndGet();
  }

  void outcomeDeposited() {
    undeposited.decrementAndGet();
  }

  /** Whether every S7 outcome decided so far has reached this rank's scheduler side. */
  boolean allDeposited() {
    return undeposited.get() == 0;
  }

  // ---------------------------------------------------------------- a stopped prefetch's slots

  /**
   * Queues the slots [releaseFrom, hit) of a stopped prefetch for release (S5/S6 decided it) and marks the
   * entry ready once this rank's reader has stopped: slots a read still writes are never freed (B7's fix).
   */
  void releaseTail(PrefetchOperation op) {
    op.queueTail(s.queues().releaseQueue());
    updateTail(op);
  }

  /** Marks the tail entry ready when the op's S7 outcome has arrived here and no read is in flight. */
  void updateTail(PrefetchOperation op) {
    op.markTailReadyIfReaderStopped(s.faults().releaseTailEarly());
  }
}
