package dev.hicachesync.controller;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A FIFO control queue (revoke, backup-ack, host-release) whose entries are appended in a deterministic
 * order and become ready at rank-local times; the local value a sync point reduces is the count of leading
 * ready entries, as for the ack queues.
 *
 * <p>Concurrency contract:
 * <ul>
 *   <li><b>producers</b>: at most two, each sequential and each appending in an order fixed by sync
 *       points: the prefetch thread (S7 outcomes, in S7 order) and the scheduler thread (S5/S6 tails,
 *       storage backups it starts);
 *   <li><b>readiers</b>: any thread ({@link Entry#markReady()}: the I/O thread when a read stops, the
 *       backup thread when a write lands, the S7 deposit); an entry never becomes unready;
 *   <li><b>consumer</b>: the scheduler thread only ({@link #leadingReady}, {@link #poll}) in counts all
 *       ranks agreed on at S3.
 * </ul>
 * The deque is guarded by this queue's monitor (uncontended in the simulator, which runs all of them on
 * the rank's thread); {@code ready} is {@code volatile}, so a reader that sees an entry ready also sees
 * what its readier wrote before marking it (the slots a read filled, the object a backup stored).
 *
 * <p>Why not a plain concurrent queue filled when the work finishes: with two producers (the prefetch
 * thread and the scheduler both hand back host slots in SGLang) the interleaving differs per rank, so
 * popping the same count frees different slots on different ranks [analysis]; fixing the order at append
 * time keeps S3's pops identical.
 *
 * <p>Why no jcstress test: the one plain-memory hand-off, {@code ready}, is {@code volatile} and written
 * once (false to true); everything else crosses threads under the monitor. Lincheck cannot tell the
 * monitor is needed (an unsynchronized deque with one appender and one popper is linearizable under its
 * sequentially consistent model; {@code ReadyQueueProducersLincheckTest} says so), so {@code
 * ReadyQueueRaceTest} races real threads instead (two producers, one popper; it fails within seconds when
 * the monitor is dropped from every method or from {@link #add} alone).
 */
final class ReadyQueue<T> {
  /** Guarded by this. */
  private final ArrayDeque<Entry<T>> entries = new ArrayDeque<>();

  /** One queued item; its owner marks it ready from any thread. */
  static final class Entry<T> {
    private final T item;
    private volatile boolean ready;

    Entry(T item) {
      this.item = item;
    }

    /** The work behind this entry is finished here: S3 may pop it. Any thread; idempotent. */
    void markReady() {
      ready = true;
    }

    /** Returns whether {@link #markReady()} has been called. Any thread. */
    boolean isReady() {
      return ready;
    }
  }

  /** Appends {@code item}, not yet ready. A producer thread (prefetch or scheduler). */
  synchronized Entry<T> add(T item) {
    Entry<T> e = new Entry<>(item);
    entries.add(e);
    return e;
  }

  /** Returns how many entries at the head are ready (the local value of S3). Scheduler thread. */
  synchronized int leadingReady() {
    int n = 0;
    for (Entry<T> e : entries) {
      if (!e.ready) {
        break;
      }
      n++;
    }
    return n;
  }

  /**
   * Removes and returns the head item; it must be ready (a later PP stage waits for that first). Scheduler
   * thread.
   */
  synchronized T poll() {
    Entry<T> e = entries.peek();
    if (e == null) {
      throw new IllegalStateException("S3 decided more pops than entries are queued");
    }
    if (!e.ready) {
      // A pop of work this rank has not finished (a later PP stage that did not wait for its own thread):
      // in SGLang the entry would not be in the queue yet.
      throw new IllegalStateException("S3 popped an entry this rank's thread has not queued yet");
    }
    entries.poll();
    return e.item;
  }

  /** Returns whether the head entry is ready. Scheduler thread. */
  synchronized boolean headReady() {
    Entry<T> e = entries.peek();
    return e != null && e.ready;
  }

  /** Returns the queued items, head first (diagnostics and tests: the order S3 pops them in). Any thread. */
  synchronized List<T> items() {
    List<T> r = new ArrayList<>();
    for (Entry<T> e : entries) {
      r.add(e.item);
    }
    return r;
  }

  /** Returns the entries queued. Any thread. */
  synchronized int size() {
    return entries.size();
  }
}
