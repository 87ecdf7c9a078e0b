package dev.hicachesync.cluster;

import dev.hicachesync.collective.CollectiveException;
import dev.hicachesync.collective.CollectiveMismatchException;
import dev.hicachesync.collective.CollectivePeerLostException;
import dev.hicachesync.collective.CollectiveTimeoutException;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One rank's handle on a group whose members are processes: the in-JVM fabric's rendezvous, over messages.
 *
 * <p>The k-th call of this rank sends its call (kind, site, payload) to every other member and waits until it
 * holds the k-th call of every member. Every member then holds the same calls, so every member decides the
 * same way: the same reduction, or the same {@link CollectiveMismatchException} naming each rank's call. A
 * member that leaves, or that does not arrive within the timeout, fails the call with a named error; the
 * group is broken afterwards, as in the in-JVM fabric. One owning thread per handle.
 */
final class RemoteGroup implements ProcessGroup {
  private final ClusterNode node;
  private final String name;
  private final List<Integer> members;
  // Messages are routed by name and members: "sched" over a stage's CP×TP and "sched" over a PP domain are
  // two groups, and one rank can belong to both.
  private final String key;
  private long nextCall; // owner thread only
  private CollectiveException broken; // owner thread only

  RemoteGroup(ClusterNode node, String name, List<Integer> members) {
    this.node = node;
    this.name = name;
    this.members = List.copyOf(members);
    this.key = name + this.members;
  }

  @Override
  public int size() {
    return members.size();
  }

  @Override
  public List<Integer> members() {
    return members;
  }

  @Override
  public int rank() {
    return node.rank();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long[] allReduce(String callSite, ReduceOp op, long[] values) {
    WireCall[] calls = call(new WireCall("allReduce(" + op.name() + ")", site(callSite), values.clone()));
    long[] result = calls[0].values().clone();
    for (int m = 1; m < calls.length; m++) {
      long[] v = calls[m].values();
      for (int i = 0; i < result.length; i++) {
        result[i] = op.apply(result[i], v[i]);
      }
    }
    return result;
  }

  @Override
  public void barrier(String callSite) {
    call(new WireCall("barrier", site(callSite), new long[0]));
  }

  @Override
  public long[] broadcast(String callSite, int rootRank, long[] values) {
    int root = members.indexOf(rootRank);
    if (root < 0) {
      throw new IllegalArgumentException("broadcast root " + rootRank + " is not a member of " + name);
    }
    WireCall[] calls = call(new WireCall("broadcast(root=" + rootRank + ")", site(callSite), values.clone()));
    return calls[root].values().clone();
  }

  /** Returns the k-th calls of every member in member order once all have arrived and match. */
  private WireCall[] call(WireCall mine) {
    if (broken != null) {
      throw broken;
    }
    long seq = nextCall++;
    node.contribute(key, seq, members, mine);
    long deadline = System.nanoTime() + node.timeout().toNanos();
    node.lock().lock();
    try {
      while (true) {
        Map<Integer, WireCall> got = node.mail().contributionsLocked(key, seq);
        if (got.size() == members.size()) {
          WireCall[] calls = new WireCall[members.size()];
          for (int m = 0; m < calls.length; m++) {
            calls[m] = got.get(members.get(m));
          }
          node.mail().forgetLocked(key, seq);
          for (WireCall c : calls) {
            if (!c.matches(calls[0])) {
              throw fail(new CollectiveMismatchException(mismatch(seq, calls)));
            }
          }
          return calls;
        }
        List<Integer> missing = missing(got);
        List<Integer> gone = new ArrayList<>(missing);
        gone.retainAll(node.lostLocked());
        if (!gone.isEmpty()) {
          boolean quiet = gone.stream().allMatch(node.liveness()::silentLocked); // found silent by another of this rank's waits
          throw fail(new CollectivePeerLostException("rank(s) " + gone + (quiet
              ? " stopped answering (nothing heard from them: a stopped, hung or cut-off process): "
              : " left the world (crash, kill or partition): ") + where(seq, mine)));
        }
        if (node.closedLocked()) {
          throw fail(new CollectivePeerLostException("rank " + node.rank() + " closed its cluster node: " + where(seq, mine)));
        }
        long now = System.nanoTime();
        if (now - deadline < 0) {
          node.awaitChangeLocked(deadline);
          continue;
        }
        // Past the timeout. A missing member that has been silent (no beat) is stopped (SIGSTOP), hung or cut off:
        // lost, like a killed one. A rank lost anywhere else breaks the world: named, not read as a protocol hang.
        // Only a member that keeps beating past a grace is alive but elsewhere: the timeout stands.
        List<Integer> silent = node.liveness().declareSilentLocked(missing);
        if (!silent.isEmpty()) {
          throw fail(new CollectivePeerLostException("rank(s) " + silent + " stopped answering: no call within the "
              + node.timeout().toMillis() + " ms timeout and nothing heard for " + node.liveness().silentForMillisLocked(silent.get(0))
              + " ms (a stopped, hung or cut-off process): " + where(seq, mine)));
        }
        if (!node.lostLocked().isEmpty()) {
          throw fail(new CollectivePeerLostException("rank(s) " + List.copyOf(node.lostLocked()) + " lost from the world"
              + " while missing rank(s) " + join(missing) + " did not call within the " + node.timeout().toMillis()
              + " ms timeout: " + where(seq, mine)));
        }
        long grace = deadline + node.liveness().aliveGraceNanos();
        if (now - grace >= 0) {
          throw fail(new CollectiveTimeoutException("collective timeout on " + name + " call #" + seq + " after "
              + node.timeout().toMillis() + " ms: missing rank(s) " + join(missing) + " (alive: still heard from);"
              + " arrived: " + arrived(got) + " | rank " + node.rank() + " waits in " + mine.describe()));
        }
        long next = grace;
        for (int m : missing) {
          long at = node.liveness().silentAtLocked(m);
          if (at - next < 0) {
            next = at;
          }
        }
        node.awaitChangeLocked(next);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw fail(new CollectiveTimeoutException("interrupted: " + where(seq, mine)));
    } finally {
      node.lock().unlock();
    }
  }

  private CollectiveException fail(CollectiveException e) {
    broken = e;
    return e;
  }

  private List<Integer> missing(Map<Integer, WireCall> got) {
    List<Integer> missing = new ArrayList<>();
    for (int m : members) {
      if (!got.containsKey(m)) {
        missing.add(m);
      }
    }
    return missing;
  }

  private String where(long seq, WireCall mine) {
    return "rank " + node.rank() + " was waiting in " + name + " " + members + " call #" + seq + " "
        + mine.describe();
  }

  private String mismatch(long seq, WireCall[] calls) {
    List<String> parts = new ArrayList<>();
    for (int m = 0; m < calls.length; m++) {
      parts.add("rank " + members.get(m) + " " + calls[m].describe());
    }
    return "INV-1 CollectiveMatching violated on " + name + " call #" + seq + ": " + String.join("; ", parts);
  }

  private String arrived(Map<Integer, WireCall> got) {
    List<String> parts = new ArrayList<>();
    for (int m : members) {
      WireCall c = got.get(m);
      if (c != null) {
        parts.add("rank " + m + " " + c.describe());
      }
    }
    return String.join("; ", parts);
  }

  private static String join(List<Integer> ranks) {
    List<String> s = new ArrayList<>();
    for (int r : ranks) {
      s.add(String.valueOf(r));
    }
    return String.join(",", s);
  }

  private static String site(String callSite) {
    if (callSite == null || callSite.isEmpty()) {
      throw new IllegalArgumentException("a collective needs a call site");
    }
    return callSite;
  }
}
