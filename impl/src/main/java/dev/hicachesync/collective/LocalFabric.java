package dev.hicachesync.collective;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An in-JVM collective fabric where ranks are threads: it hands out {@link ProcessGroup} handles and
 * {@link PipeChannel}s, and knows where every rank is waiting, for timeout messages.
 *
 * <p>Thread-safe: any thread may create groups and channels. Asking twice for the same (name, members)
 * returns handles on the same rendezvous; a name distinguishes two groups with the same members (the
 * scheduler's and the prefetch thread's, as in SGLang).
 */
public final class LocalFabric {
  private final long timeoutNanos;
  private final WaitBoard board = new WaitBoard();
  private final Map<String, Rendezvous> groups = new ConcurrentHashMap<>();
  private final Map<String, LocalPipe> pipes = new ConcurrentHashMap<>();

  /** Creates a fabric whose collectives and receives fail after waiting {@code timeout} (must be > 0). */
  public LocalFabric(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("collective timeout must be > 0, got " + timeout);
    }
    this.timeoutNanos = timeout.toNanos();
  }

  /** Returns the timeout of every collective and receive. */
  public Duration timeout() {
    return Duration.ofNanos(timeoutNanos);
  }

  /** Returns {@code callerRank}'s handle on the unnamed group of {@code members}. Any thread. */
  public ProcessGroup group(List<Integer> members, int callerRank) {
    return group(null, members, callerRank);
  }

  /**
   * Returns {@code callerRank}'s handle on the group named {@code name} (null: unnamed) of {@code members}
   * (any order, distinct, non-negative; must contain {@code callerRank}). Any thread.
   */
  public ProcessGroup group(String name, List<Integer> members, int callerRank) {
    List<Integer> sorted = sortedDistinct(members);
    if (!sorted.contains(callerRank)) {
      throw new IllegalArgumentException("rank " + callerRank + " is not a member of " + sorted);
    }
    String full = (name == null ? "group" : name) + sorted.toString().replace(" ", "");
    Rendezvous r = groups.computeIfAbsent(full, k -> {
      board.register(sorted);
      return new Rendezvous(k, sorted, timeoutNanos, board);
    });
    return new LocalProcessGroup(r, callerRank);
  }

  /** Returns the channel from {@code fromRank} to {@code toRank}. Any thread. */
  public PipeChannel channel(int fromRank, int toRank) {
    return channel("pipe", fromRank, toRank);
  }

  /** Returns the channel named {@code name} from {@code fromRank} to {@code toRank}. Any thread. */
  public PipeChannel channel(String name, int fromRank, int toRank) {
    if (fromRank < 0 || toRank < 0 || fromRank == toRank) {
      throw new IllegalArgumentException("bad pipe " + fromRank + " -> " + toRank);
    }
    String full = name + "[" + fromRank + "->" + toRank + "]";
    return pipes.computeIfAbsent(full, k -> {
      board.register(List.of(fromRank, toRank));
      return new LocalPipe(k, fromRank, toRank, timeoutNanos, board);
    });
  }

  /** Returns where every known rank is waiting right now, e.g. for a divergence report. Any thread. */
  public String describeWaits() {
    return board.describe();
  }

  private static List<Integer> sortedDistinct(List<Integer> members) {
    if (members.isEmpty()) {
      throw new IllegalArgumentException("a group needs at least one member");
    }
    TreeSet<Integer> set = new TreeSet<>();
    for (Integer m : members) {
      if (m == null || m < 0 || !set.add(m)) {
        throw new IllegalArgumentException("group members must be distinct ranks >= 0, got " + members);
      }
    }
    return List.copyOf(new ArrayList<>(set));
  }
}
