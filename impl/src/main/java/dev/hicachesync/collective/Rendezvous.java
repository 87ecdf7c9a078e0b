package dev.hicachesync.collective;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The shared state of one group in a {@link LocalFabric}: a sequence of {@link Generation}s, the k-th
 * call of every member landing in the k-th generation.
 *
 * <p>Why one lock and one condition per group: with 2–8 member threads the cost is a park/unpark per
 * waiter (tens of µs), and a waiter keeps a reference to its own generation, so a fast member may start
 * generation k+1 while slow ones still read generation k's result. The timeout is a watchdog against
 * hangs (wall time, but it never decides a protocol outcome: it only turns a deadlock into an error).
 */
final class Rendezvous {
  private final String name;
  private final List<Integer> members;
  private final long timeoutNanos;
  private final WaitBoard board;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition completed = lock.newCondition();

  /** Guarded by {@link #lock}. */
  private Generation current;
  /** The failure that broke the group; guarded by {@link #lock}. */
  private CollectiveException broken;

  Rendezvous(String name, List<Integer> members, long timeoutNanos, WaitBoard board) {
    this.name = name;
    this.members = members;
    this.timeoutNanos = timeoutNanos;
    this.board = board;
    this.current = new Generation(0, members.size());
  }

  String name() {
    return name;
  }

  List<Integer> members() {
    return members;
  }

  /** Joins the next generation as member {@code index} and returns the shared result. Any member thread. */
  long[] call(int index, Call call) {
    int rank = members.get(index);
    boolean interrupted = false;
    board.enter(rank, name + " at " + call.site() + " (" + call.kind() + ")");
    lock.lock();
    try {
      if (broken != null) {
        throw broken.rethrownFor("rank " + rank + " (group broken earlier)");
      }
      Generation g = current;
      if (g.arrivals[index] != null) {
        // Two threads of one rank in one group: gloo would pair them with the wrong calls.
        throw new IllegalStateException(
            "rank " + rank + " entered " + name + " twice in call #" + g.index + " (" + g.arrivals[index].describe()
                + " and " + call.describe() + "): give each thread its own group");
      }
      g.arrivals[index] = call;
      if (++g.arrived == g.arrivals.length) {
        finish(g);
      } else {
        long deadline = System.nanoTime() + timeoutNanos;
        while (!g.complete) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            fail(g, timeoutMessage(g));
            break;
          }
          try {
            completed.awaitNanos(left);
          } catch (InterruptedException e) {
            interrupted = true; // keep waiting: leaving would corrupt the pairing of later calls
          }
        }
      }
      if (g.failure != null) {
        throw g.failure.rethrownFor("rank " + rank);
      }
      return g.result;
    } finally {
      lock.unlock();
      board.exit();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Completes {@code g} with its result or a mismatch; caller holds the lock. */
  private void finish(Generation g) {
    Call first = g.arrivals[0];
    for (Call c : g.arrivals) {
      if (!c.matches(first)) {
        fail(g, new CollectiveMismatchException(mismatchMessage(g)));
        return;
      }
    }
    g.result = combine(g.arrivals);
    g.complete = true;
    current = new Generation(g.index + 1, members.size());
    completed.signalAll();
  }

  private long[] combine(Call[] calls) {
    Call first = calls[0]; // all calls match here, so the first one's op and root are everyone's
    if (first.op() != null) {
      ReduceOp op = first.op();
      long[] acc = first.values().clone();
      for (int m = 1; m < calls.length; m++) {
        long[] v = calls[m].values();
        for (int i = 0; i < acc.length; i++) {
          acc[i] = op.apply(acc[i], v[i]);
        }
      }
      return acc;
    }
    if (first.root() >= 0) {
      return calls[members.indexOf(first.root())].values();
    }
    return first.values(); // barrier: empty payload
  }

  private void fail(Generation g, CollectiveException failure) {
    g.failure = failure;
    g.complete = true;
    broken = failure;
    completed.signalAll();
  }

  private String mismatchMessage(Generation g) {
    List<String> parts = new ArrayList<>();
    for (int m = 0; m < g.arrivals.length; m++) {
      parts.add("rank " + members.get(m) + " " + g.arrivals[m].describe());
    }
    return "INV-1 CollectiveMatching violated on " + name + " call #" + g.index + ": " + String.join("; ", parts);
  }

  private CollectiveTimeoutException timeoutMessage(Generation g) {
    List<String> missing = new ArrayList<>();
    List<String> arrived = new ArrayList<>();
    for (int m = 0; m < g.arrivals.length; m++) {
      if (g.arrivals[m] == null) {
        missing.add(String.valueOf(members.get(m)));
      } else {
        arrived.add("rank " + members.get(m) + " " + g.arrivals[m].describe());
      }
    }
    return new CollectiveTimeoutException(
        "collective timeout on " + name + " call #" + g.index + " after "
            + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms: missing rank(s) " + String.join(",", missing)
            + "; arrived: " + String.join("; ", arrived) + " | where every rank waits: " + board.describe());
  }
}
