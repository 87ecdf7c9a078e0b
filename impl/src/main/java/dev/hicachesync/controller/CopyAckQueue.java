package dev.hicachesync.controller;

import java.util.ArrayDeque;

/**
 * The write-ack or load-ack queue ({@code ack_write_queue}, {@code ack_load_queue}): acks in issue order,
 * each waiting for one copy, counted and popped at S1/S2.
 *
 * <p>Concurrency contract (the name says who touches what: acks of <em>copies</em>, queued by the
 * scheduler):
 * <ul>
 *   <li><b>producer</b>: the scheduler thread only ({@link #add} at write-through / load-back issue);
 *   <li><b>completer</b>: the copy engine, any thread, and never through this class: it sets the ack's
 *       {@link dev.hicachesync.env.TransferEvent} done, and an event never becomes undone;
 *   <li><b>consumer</b>: the scheduler thread only ({@link #leadingDone}, {@link #poll}).
 * </ul>
 * So the deque itself is single-threaded and needs no lock; the only cross-thread state is each event's
 * done flag, which {@link dev.hicachesync.env.TransferEvent} publishes (its implementations keep it in a
 * {@code volatile} field or behind a lock, so a {@code true} seen here also shows the copied bytes). Why no
 * jcstress test: there is no plain field shared between threads here to get wrong; the events' own
 * publication is tested where they are implemented.
 *
 * <p>Why the <em>leading</em> run and not every done ack: S1/S2 pop from the head, so an ack done behind a
 * pending one cannot be popped yet; counting it would make the MIN over ranks promise pops that would
 * block (or, where the pop does not wait, unlock a node whose copy is still in flight).
 */
final class CopyAckQueue<A extends PendingCopy> {
  private final ArrayDeque<A> acks = new ArrayDeque<>();

  /** Appends {@code ack} (its copy just issued). Scheduler thread. */
  void add(A ack) {
    acks.add(ack);
  }

  /** Returns how many acks at the head have completed copies (the local value of S1/S2). Scheduler thread. */
  int leadingDone() {
    int n = 0;
    for (A a : acks) {
      if (!a.event().isDone()) {
        break;
      }
      n++;
    }
    return n;
  }

  /** Removes and returns the head ack, or null if empty. Scheduler thread. */
  A poll() {
    return acks.poll();
  }

  /** Returns the queued acks, head first, for a read-only pass. Scheduler thread. */
  Iterable<A> queued() {
    return acks;
  }

  /** Returns the acks queued. Scheduler thread. */
  int size() {
    return acks.size();
  }
}
