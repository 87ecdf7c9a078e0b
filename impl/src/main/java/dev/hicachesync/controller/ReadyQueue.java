package dev.hicachesync.controller;

import java.util.ArrayDeque;

/**
 * A FIFO control queue whose entries are appended in a deterministic order (at sync points, or by one
 * sequential background thread) and become ready at rank-local times; the local value a sync point reduces
 * is the count of leading ready entries, as for the ack queues.
 *
 * <p>Why not a plain concurrent queue filled when the work finishes: with two producers (the prefetch
 * thread and the scheduler both hand back host slots in SGLang) the interleaving differs per rank, so
 * popping the same count frees different slots on different ranks [analysis]; fixing the order at append
 * time keeps S3's pops identical. One consumer (the scheduler); here the producers run on the scheduler
 * thread too (the simulator runs background callbacks there), so {@code ready} needs no fence.
 */
final class ReadyQueue<T> {
  private final ArrayDeque<Entry<T>> entries = new ArrayDeque<>();

  /** One queued item. */
  static final class Entry<T> {
    final T item;
    boolean ready;

    Entry(T item) {
      this.item = item;
    }
  }

  /** Appends {@code item}, not yet ready. */
  Entry<T> add(T item) {
    Entry<T> e = new Entry<>(item);
    entries.add(e);
    return e;
  }

  /** Returns how many entries at the head are ready (the local value of S3). */
  int leadingReady() {
    int n = 0;
    for (Entry<T> e : entries) {
      if (!e.ready) {
        break;
      }
      n++;
    }
    return n;
  }

  /** Removes and returns the head item; it must be ready (a later PP stage waits for that first). */
  T poll() {
    Entry<T> e = entries.poll();
    if (e == null) {
      throw new IllegalStateException("S3 decided more pops than entries are queued");
    }
    return e.item;
  }

  /** Returns whether the head entry is ready. */
  boolean headReady() {
    Entry<T> e = entries.peek();
    return e != null && e.ready;
  }

  int size() {
    return entries.size();
  }
}
