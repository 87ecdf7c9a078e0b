package dev.hicachesync.collective;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where every thread of every rank of one fabric is currently blocked, for timeout messages.
 *
 * <p>Thread-safe. Two sources: group members ({@link Waiter}s registered once, which say where they wait
 * only when asked, so that a collective call writes no entry and allocates nothing) and pipe receivers,
 * keyed by thread. A rank may block in two places at once (scheduler and prefetch thread); the snapshot
 * is not atomic across threads, which is enough for a diagnostic.
 *
 * <p>A wait that ended in its timeout stays on the board, marked as timed out: a timeout ends the fabric's run,
 * and in a circular wait the peers' timeouts fire within moments of each other, so the one described last would
 * otherwise find the other rank "not in a collective" and lose half of the circle.
 */
final class WaitBoard {
  /** Something a rank can wait in that describes its wait on demand. */
  interface Waiter {
    int rank();

    /** Returns e.g. {@code group[0,1] at S1 (allReduce(MIN))}, or null when not waiting. */
    String waitingAt();
  }

  /** What follows a wait that ended in its timeout. */
  static final String TIMED_OUT = ", timed out";

  private record Wait(int rank, String where) {}

  private final Map<Thread, Wait> waits = new ConcurrentHashMap<>();
  private final List<Waiter> waiters = new CopyOnWriteArrayList<>();
  private final NavigableSet<Integer> ranks = new ConcurrentSkipListSet<>();
  private final Map<Integer, List<String>> timedOut = new ConcurrentHashMap<>();

  /** Records that {@code rank} belongs to the fabric, so that it is listed even when it never waits. */
  void register(Iterable<Integer> members) {
    for (int r : members) {
      ranks.add(r);
    }
  }

  /** Adds a group member's wait to the board (its rank is listed from now on). */
  void register(Waiter waiter) {
    ranks.add(waiter.rank());
    waiters.add(waiter);
  }

  /** Records that the calling thread of {@code rank} now blocks at {@code where}. */
  void enter(int rank, String where) {
    waits.put(Thread.currentThread(), new Wait(rank, where));
  }

  /** Records that the calling thread no longer blocks. */
  void exit() {
    waits.remove(Thread.currentThread());
  }

  /** Records that {@code rank} stopped waiting at {@code where} because its timeout fired. */
  void timedOut(int rank, String where) {
    timedOut.computeIfAbsent(rank, r -> new CopyOnWriteArrayList<>()).add(where + TIMED_OUT);
  }

  /** Returns e.g. {@code rank 0: group[0,1] at S1; rank 1: not in a collective}. */
  String describe() {
    List<String> parts = new ArrayList<>();
    for (int r : ranks) {
      List<String> mine = new ArrayList<>();
      for (Wait w : waits.values()) {
        if (w.rank() == r) {
          mine.add(w.where());
        }
      }
      for (Waiter w : waiters) {
        String where = w.rank() == r ? w.waitingAt() : null;
        if (where != null) {
          mine.add(where);
        }
      }
      mine.addAll(timedOut.getOrDefault(r, List.of()));
      // sorted: deterministic text when a rank waits in two places; distinct: two members that time out
      // together may each fence a missing one, and each then records the group's timed-out waits
      List<String> text = mine.stream().distinct().sorted().toList();
      parts.add("rank " + r + ": " + (text.isEmpty() ? "not in a collective" : String.join(" & ", text)));
    }
    return String.join("; ", parts);
  }
}
