package dev.hicachesync.collective;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * Where every thread of every rank of one fabric is currently blocked, for timeout messages.
 *
 * <p>Thread-safe. Keyed by thread because a rank may block in two places at once (scheduler and prefetch
 * thread); the snapshot is not atomic across threads, which is enough for a diagnostic.
 */
final class WaitBoard {
  private record Wait(int rank, String where) {}

  private final Map<Thread, Wait> waits = new ConcurrentHashMap<>();
  private final NavigableSet<Integer> ranks = new ConcurrentSkipListSet<>();

  /** Records that {@code rank} belongs to the fabric, so that it is listed even when it never waits. */
  void register(Iterable<Integer> members) {
    for (int r : members) {
      ranks.add(r);
    }
  }

  /** Records that the calling thread of {@code rank} now blocks at {@code where}. */
  void enter(int rank, String where) {
    waits.put(Thread.currentThread(), new Wait(rank, where));
  }

  /** Records that the calling thread no longer blocks. */
  void exit() {
    waits.remove(Thread.currentThread());
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
      mine.sort(null); // deterministic text when a rank waits in two places
      parts.add("rank " + r + ": " + (mine.isEmpty() ? "not in a collective" : String.join(" & ", mine)));
    }
    return String.join("; ", parts);
  }
}
