package dev.hicachesync.collective;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The shared state of one group in a {@link LocalFabric}: a sequence of generations, the k-th call of
 * every member landing in generation k.
 *
 * <p>Why this shape (issue 13): a lock and condition per group cost a park/unpark per waiter, tens of
 * µs, on every S1..S7 of every step. Here each member writes its call into its own {@link MemberSlot}
 * and counts its arrival on one atomic counter; the last to arrive checks INV-1, reduces into a result
 * buffer owned by the group and publishes {@code done = k + 1}. Waiters spin for a learned while (only
 * when the group's members fit the cores), then park (see {@link WaitPolicy}). Nothing is allocated
 * per call on this path except the fresh array the interface returns.
 *
 * <p>Why one result buffer is enough: the finisher of generation k+1 writes it only once every member
 * has arrived in k+1, and a member arrives in k+1 only after it copied generation k's result. The
 * timeout is a watchdog against hangs (wall time, but it never decides a protocol outcome: it only
 * turns a deadlock into an error). Failures (mismatch, timeout) are decided under {@link #failLock}, as
 * is a generation's success, so that a generation either completes for every member or fails for every
 * member and breaks the group.
 */
final class Rendezvous {
  private final String name;
  private final List<Integer> members;
  private final MemberSlot[] slots;
  private final long timeoutNanos;
  private final WaitBoard board;
  private final WaitPolicy policy;
  private final AtomicInteger arrived = new AtomicInteger();
  private final Object failLock = new Object();

  /** Completed generations, which is also the index of the one in progress. */
  private volatile long done;
  /** The failure that broke the group; once set, {@link #done} never moves again. */
  private volatile CollectiveException broken;
  /** The result of generation {@code done - 1}; written by its finisher only. */
  private long[] result = new long[8];

  Rendezvous(String name, List<Integer> members, long timeoutNanos, WaitBoard board) {
    this.name = name;
    this.members = members;
    this.timeoutNanos = timeoutNanos;
    this.board = board;
    this.policy = WaitPolicy.forMembers(members.size());
    this.slots = new MemberSlot[members.size()];
    for (int m = 0; m < slots.length; m++) {
      slots[m] = new MemberSlot(members.get(m), name, policy);
      board.register(slots[m]);
    }
  }

  String name() {
    return name;
  }

  List<Integer> members() {
    return members;
  }

  /** All-reduce as member {@code index}: returns a fresh array with the reduction. Owner thread. */
  long[] allReduce(int index, String site, ReduceOp op, long[] values) {
    return call(index, MemberSlot.ALL_REDUCE, op, -1, site, values.length, values, true);
  }

  /** Barrier as member {@code index}. Owner thread. */
  void barrier(int index, String site) {
    call(index, MemberSlot.BARRIER, null, -1, site, 0, null, false);
  }

  /** Broadcast from {@code root} (a member) as member {@code index}: a fresh copy of root's values. */
  long[] broadcast(int index, String site, int root, long[] values) {
    boolean isRoot = members.get(index) == root;
    return call(index, MemberSlot.BROADCAST, null, root, site, values.length, isRoot ? values : null, true);
  }

  private long[] call(int index, int kind, ReduceOp op, int root, String site, int length, long[] payload,
      boolean wantResult) {
    MemberSlot slot = slots[index];
    CollectiveException b = broken;
    if (b != null) {
      throw b.rethrownFor("rank " + slot.rank + " (group broken earlier)");
    }
    long k = done;
    long seen = slot.lastClaimed();
    if (seen >= k || !slot.claim(seen, k)) {
      // Two threads of one rank in one group: gloo would pair them with the wrong calls.
      throw new IllegalStateException(
          "rank " + slot.rank + " entered " + name + " twice in call #" + k + " (" + slot.toCall().describe()
              + " and " + MemberSlot.describe(kind, op, root, site, length).describe()
              + "): give each thread its own group");
    }
    slot.record(kind, op, root, site, length, payload);
    slot.waitingIn = k;
    boolean interrupted = false;
    try {
      if (arrived.incrementAndGet() == slots.length) {
        finish(k, slot);
      } else {
        interrupted = await(k, slot);
      }
      if (done == k) { // not completed: failed
        throw broken.rethrownFor("rank " + slot.rank);
      }
      if (!wantResult) {
        return null;
      }
      long[] out = new long[length];
      System.arraycopy(result, 0, out, 0, length);
      return out;
    } finally {
      slot.waitingIn = -1;
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Completes generation {@code k} with its result or a mismatch; the last member to arrive. */
  private void finish(long k, MemberSlot last) {
    MemberSlot first = slots[0];
    for (MemberSlot s : slots) {
      if (!s.matches(first)) {
        fail(k, new CollectiveMismatchException(mismatchMessage(k)));
        return;
      }
    }
    combine(first);
    arrived.set(0); // before done moves: the next generation's first arrival counts from zero
    synchronized (failLock) {
      if (broken != null) { // a waiter timed out between our arrival and here: the group is broken
        return;
      }
      done = k + 1;
    }
    for (MemberSlot s : slots) {
      if (s != last) {
        s.unpark();
      }
    }
  }

  private void combine(MemberSlot first) {
    int len = first.length;
    if (result.length < len) {
      result = new long[Math.max(len, 2 * result.length)];
    }
    long[] acc = result;
    if (first.kind == MemberSlot.ALL_REDUCE) {
      System.arraycopy(first.values, 0, acc, 0, len);
      ReduceOp op = first.op;
      for (int m = 1; m < slots.length; m++) {
        long[] v = slots[m].values;
        switch (op) {
          case MIN -> {
            for (int i = 0; i < len; i++) {
              acc[i] = Math.min(acc[i], v[i]);
            }
          }
          case MAX -> {
            for (int i = 0; i < len; i++) {
              acc[i] = Math.max(acc[i], v[i]);
            }
          }
          default -> {
            for (int i = 0; i < len; i++) {
              acc[i] = op.apply(acc[i], v[i]);
            }
          }
        }
      }
    } else if (first.kind == MemberSlot.BROADCAST) {
      // Copied out of the root's slot: the root may start its next call before the others read this one.
      for (MemberSlot s : slots) {
        if (s.rank == first.root) {
          System.arraycopy(s.values, 0, acc, 0, len);
        }
      }
    }
  }

  /** Waits until generation {@code k} completes or fails; returns whether the thread was interrupted. */
  private boolean await(long k, MemberSlot slot) {
    boolean interrupted = false;
    boolean parked = false;
    long patience = slot.patience.next();
    long start = System.nanoTime();
    long deadline = start + timeoutNanos;
    while (done == k && broken == null) {
      long now = System.nanoTime();
      if (now - start < patience) {
        Thread.onSpinWait();
        continue;
      }
      long left = deadline - now;
      if (left <= 0) {
        fail(k, timeoutMessage(k));
        break;
      }
      parked = true;
      Thread me = Thread.currentThread();
      slot.registerPark(me);
      if (done == k && broken == null) {
        LockSupport.parkNanos(this, left);
      }
      slot.clearPark(me);
      if (Thread.interrupted()) {
        interrupted = true; // keep waiting: leaving would corrupt the pairing of later calls
      }
    }
    slot.patience.learn(parked);
    return interrupted;
  }

  private void fail(long k, CollectiveException failure) {
    synchronized (failLock) {
      if (done != k || broken != null) {
        return; // completed or failed meanwhile
      }
      broken = failure;
    }
    for (MemberSlot s : slots) {
      s.unpark();
    }
  }

  private String mismatchMessage(long k) {
    List<String> parts = new ArrayList<>();
    for (MemberSlot s : slots) {
      parts.add("rank " + s.rank + " " + s.toCall().describe());
    }
    return "INV-1 CollectiveMatching violated on " + name + " call #" + k + ": " + String.join("; ", parts);
  }

  private CollectiveTimeoutException timeoutMessage(long k) {
    List<String> missing = new ArrayList<>();
    List<String> arrivedCalls = new ArrayList<>();
    for (MemberSlot s : slots) {
      if (s.waitingIn != k) {
        missing.add(String.valueOf(s.rank));
      } else {
        arrivedCalls.add("rank " + s.rank + " " + s.toCall().describe());
      }
    }
    return new CollectiveTimeoutException(
        "collective timeout on " + name + " call #" + k + " after "
            + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms: missing rank(s) " + String.join(",", missing)
            + "; arrived: " + String.join("; ", arrivedCalls) + " | where every rank waits: " + board.describe());
  }
}
