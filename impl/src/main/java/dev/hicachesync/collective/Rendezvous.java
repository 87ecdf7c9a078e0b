package dev.hicachesync.collective;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.concurrent.locks.LockSupport;

/**
 * The shared state of one group in a {@link LocalFabric}: a sequence of generations, the k-th call of
 * every member landing in generation k.
 *
 * <p>Why this shape: no member waits for another to compute its result. Each member copies
 * its call into its own {@link MemberSlot} (buffer {@code k & 1}) and publishes its arrival with one
 * CAS on its own counter; then it waits until every other member's counter shows an arrival in k, checks
 * INV-1 against the others' calls and reduces their payloads itself, in member order, so every member
 * computes the same result. On the success path no field is written by two threads (no shared arrival
 * counter, no result buffer, no lock), so two members on two cores exchange a handful of cache lines per
 * call and nothing else. Waiters wait actively for a bounded while, then park (see {@link WaitPolicy});
 * the member that sees every arrival right after its own unparks those that parked. Whether the group
 * waits actively at all is timed by its {@link WaitModeChooser}.
 *
 * <p>Failures decide a generation for every member. A mismatch is seen alike by every member (each
 * compares the same k-th calls); the first to publish it in {@link #broken} wins, and all throw that
 * exception. A timeout fences the late members out ({@link MemberSlot#fence}): the CAS on the late
 * member's counter decides once whether it arrived, so either every member sees all arrivals or every
 * member sees a fence and fails. The timeout is a watchdog against hangs (wall time, it never decides a
 * protocol outcome). After a failure the group is broken: every later call fails at once.
 */
final class Rendezvous {
  private static final AtomicReferenceFieldUpdater<Rendezvous, CollectiveException> BROKEN =
      AtomicReferenceFieldUpdater.newUpdater(Rendezvous.class, CollectiveException.class, "broken");

  private static final int WAITING = 0;
  private static final int ALL_ARRIVED = 1;
  private static final int FAILED = 2;

  private final String name;
  private final List<Integer> members;
  private final MemberSlot[] slots;
  private final long timeoutNanos;
  private final WaitBoard board;

  /** How the members wait before they park. */
  private final WaitPolicy policy;
  /** Wait actively or park at once, by measurement; null when the policy always parks. */
  private final WaitModeChooser chooser;

  /** The failure that broke the group; set once. */
  private volatile CollectiveException broken;

  Rendezvous(String name, List<Integer> members, long timeoutNanos, WaitBoard board) {
    this.name = name;
    this.members = members;
    this.timeoutNanos = timeoutNanos;
    this.board = board;
    this.policy = WaitPolicy.forMembers(members.size());
    this.chooser = policy.mode() == WaitPolicy.Mode.PARK ? null : new WaitModeChooser();
    this.slots = new MemberSlot[members.size()];
    for (int m = 0; m < slots.length; m++) {
      slots[m] = new MemberSlot(members.get(m));
    }
    for (int m = 0; m < slots.length; m++) {
      board.register(new MemberWait(m));
    }
  }

  String name() {
    return name;
  }

  List<Integer> members() {
    return members;
  }

  /** The group's choice between waiting actively and parking (null: the policy always parks); tests. */
  WaitModeChooser chooser() {
    return chooser;
  }

  /** All-reduce as member {@code index}: returns a fresh array with the reduction. Owner thread. */
  long[] allReduce(int index, String site, ReduceOp op, long[] values) {
    return call(index, MemberSlot.ALL_REDUCE, op, -1, site, values.length, values, null);
  }

  /** All-reduce as member {@code index} into {@code out} (at least as long as {@code values}). Owner thread. */
  long[] allReduceInto(int index, String site, ReduceOp op, long[] values, long[] out) {
    return call(index, MemberSlot.ALL_REDUCE, op, -1, site, values.length, values, out);
  }

  /** Barrier as member {@code index}. Owner thread. */
  void barrier(int index, String site) {
    call(index, MemberSlot.BARRIER, null, -1, site, 0, null, null);
  }

  /** Broadcast from {@code root} (a member) as member {@code index}: a fresh copy of root's values. */
  long[] broadcast(int index, String site, int root, long[] values) {
    boolean isRoot = members.get(index) == root;
    return call(index, MemberSlot.BROADCAST, null, root, site, values.length, isRoot ? values : null, null);
  }

  /**
   * One call of member {@code index}: the result goes into {@code out} when given, else into a fresh
   * array (null for a barrier).
   */
  private long[] call(int index, int kind, ReduceOp op, int root, String site, int length, long[] payload,
      long[] out) {
    MemberSlot me = slots[index];
    CollectiveException b = broken;
    if (b != null) {
      throw b.rethrownFor("rank " + me.rank() + " (group broken earlier)");
    }
    long state = me.state();
    if (!me.claim(state)) {
      // Two threads of one rank in one group: gloo would pair them with the wrong calls.
      long k = state >>> 1;
      throw new IllegalStateException(
          "rank " + me.rank() + " entered " + name + " twice in call #" + k + " (" + me.toCall(k).describe()
              + " and " + MemberSlot.describe(MemberSlot.pack(kind, op, root, length), site).describe()
              + "): give each thread its own group");
    }
    long k = state >>> 1;
    boolean interrupted = false;
    boolean counted = false;
    try {
      me.record(k, kind, op, root, site, length, payload);
      counted = me.arrive(k);
      if (!counted) { // a timed-out member fenced us out of generation k
        throw awaitBroken().rethrownFor("rank " + me.rank());
      }
      if (progress(k) == ALL_ARRIVED) {
        // We are the last (or among the last): nobody else will wake those that parked.
        wakeParked(k, index);
      } else {
        interrupted = await(k, me);
        if (progress(k) != ALL_ARRIVED) {
          throw awaitBroken().rethrownFor("rank " + me.rank());
        }
        wakeParked(k, index); // help the last arriver: the wake-ups spread over the cores
      }
      MemberSlot first = slots[0];
      for (MemberSlot s : slots) {
        if (!s.matches(first, k)) {
          BROKEN.compareAndSet(this, null, new CollectiveMismatchException(mismatchMessage(k)));
          throw broken.rethrownFor("rank " + me.rank());
        }
      }
      long[] result = result(k, kind, op, root, length, out);
      if (index == 0 && chooser != null) {
        chooser.tick(System.nanoTime());
      }
      return result;
    } finally {
      me.release(state, counted);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Generation {@code k}'s result, computed from every member's copy in member order (same everywhere);
   * {@code op} is this member's, equal to every other's once INV-1 held.
   */
  private long[] result(long k, int kind, ReduceOp op, int root, int length, long[] out) {
    if (kind == MemberSlot.BARRIER) {
      return null;
    }
    long[] acc = out != null ? out : new long[length];
    if (kind == MemberSlot.BROADCAST) {
      for (MemberSlot s : slots) {
        if (s.rank() == root) {
          System.arraycopy(s.values(k), 0, acc, 0, length);
        }
      }
      return acc;
    }
    System.arraycopy(slots[0].values(k), 0, acc, 0, length);
    for (int m = 1; m < slots.length; m++) {
      long[] v = slots[m].values(k);
      switch (op) {
        case MIN -> {
          for (int i = 0; i < length; i++) {
            acc[i] = Math.min(acc[i], v[i]);
          }
        }
        case MAX -> {
          for (int i = 0; i < length; i++) {
            acc[i] = Math.max(acc[i], v[i]);
          }
        }
        default -> {
          for (int i = 0; i < length; i++) {
            acc[i] = op.apply(acc[i], v[i]);
          }
        }
      }
    }
    return acc;
  }

  /** Whether every member arrived in generation {@code k}, some member was fenced out, or neither yet. */
  private int progress(long k) {
    int status = ALL_ARRIVED;
    for (MemberSlot s : slots) {
      long q = s.seq();
      if (q == MemberSlot.FENCED) {
        return FAILED;
      }
      if (q <= k) {
        status = WAITING;
      }
    }
    return status;
  }

  /**
   * Unparks every other member still registered to park: the last arrival's duty, and every woken
   * member's help. Why help: one waker makes n-1 futex calls in a row while the other cores sit idle
   * (their members are all parked); a woken member that joins in takes registrations the waker has not
   * reached yet ({@link MemberSlot#unpark} hands each to one waker). Each starts after its own index, so
   * that the wakers spread over the group instead of racing for the same slots. Only members still in
   * generation {@code k} (counter k+1): one that went on to k+1 and parked there waits for k+1's last
   * arrival, and waking it from k made it park twice (measured at 2 ranks: 1.43 parks per call).
   */
  private void wakeParked(long k, int index) {
    int n = slots.length;
    for (int i = 1; i < n; i++) {
      int m = index + i;
      MemberSlot s = slots[m < n ? m : m - n];
      if (s.seq() == k + 1) {
        s.unpark();
      }
    }
  }

  /**
   * Waits until every member arrived in {@code k} or one was fenced out; returns whether the thread was
   * interrupted (it keeps waiting: leaving would corrupt the pairing of later calls).
   */
  private boolean await(long k, MemberSlot me) {
    boolean interrupted = false;
    boolean yield = policy.mode() == WaitPolicy.Mode.YIELD;
    long patience = chooser == null || chooser.parking() ? 0 : policy.activeNanos();
    long start = System.nanoTime();
    while (progress(k) == WAITING) {
      long waited = System.nanoTime() - start;
      if (waited < patience) {
        if (yield) {
          Thread.yield();
        } else {
          Thread.onSpinWait();
        }
        continue;
      }
      if (waited >= timeoutNanos) {
        timeOut(k);
        continue; // now every member arrived (the fence came too late) or one is fenced out
      }
      Thread t = Thread.currentThread();
      me.registerPark(t);
      if (progress(k) == WAITING) {
        LockSupport.parkNanos(this, timeoutNanos - waited);
      }
      me.clearPark(t);
      if (Thread.interrupted()) {
        interrupted = true;
      }
    }
    return interrupted;
  }

  /**
   * Fences the members missing from generation {@code k}; if one was fenced, the group fails, and the members
   * that had arrived stay on the wait board as timed out.
   */
  private void timeOut(long k) {
    CollectiveTimeoutException failure = timeoutMessage(k); // before the fence: the board still shows the waits
    boolean fenced = false;
    for (MemberSlot s : slots) {
      fenced |= s.fence(k);
    }
    if (fenced) {
      // before the failure is published: until then no member that arrived can leave the call
      for (MemberSlot s : slots) {
        if (s.seq() > k) { // arrived (a fenced member's seq is FENCED, the least long)
          board.timedOut(s.rank(), waitText(s, k));
        }
      }
      BROKEN.compareAndSet(this, null, failure);
      for (MemberSlot s : slots) {
        s.unpark();
      }
    }
  }

  /** The failure of a generation seen fenced: published right after the fence by the member that fenced. */
  private CollectiveException awaitBroken() {
    CollectiveException b;
    while ((b = broken) == null) {
      Thread.yield(); // the fencing member may need this core to publish it
    }
    return b;
  }

  private String mismatchMessage(long k) {
    List<String> parts = new ArrayList<>();
    for (MemberSlot s : slots) {
      parts.add("rank " + s.rank() + " " + s.toCall(k).describe());
    }
    return "INV-1 CollectiveMatching violated on " + name + " call #" + k + ": " + String.join("; ", parts);
  }

  private CollectiveTimeoutException timeoutMessage(long k) {
    List<String> missing = new ArrayList<>();
    List<String> arrivedCalls = new ArrayList<>();
    for (MemberSlot s : slots) {
      if (s.seq() <= k) { // not arrived, or fenced
        missing.add(String.valueOf(s.rank()));
      } else {
        arrivedCalls.add("rank " + s.rank() + " " + s.toCall(k).describe());
      }
    }
    return new CollectiveTimeoutException(
        "collective timeout on " + name + " call #" + k + " after "
            + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms: missing rank(s) " + String.join(",", missing)
            + "; arrived: " + String.join("; ", arrivedCalls) + " | where every rank waits: " + board.describe());
  }

  /** Where member {@code s} waits in generation {@code k}, as the wait board says it. */
  private String waitText(MemberSlot s, long k) {
    return name + " at " + s.site(k) + " (" + s.toCall(k).kind() + ")";
  }

  /** Member {@code index}'s entry on the wait board: where it waits, read on demand (diagnostics only). */
  private final class MemberWait implements WaitBoard.Waiter {
    private final int index;

    MemberWait(int index) {
      this.index = index;
    }

    @Override
    public int rank() {
      return slots[index].rank();
    }

    @Override
    public String waitingAt() {
      MemberSlot s = slots[index];
      long state = s.state();
      long k = state >>> 1;
      if ((state & 1) == 0 || s.seq() != k + 1) {
        return null; // not in a call, or not arrived yet
      }
      return switch (progress(k)) {
        case WAITING -> waitText(s, k);
        // fenced, and still in the call: from the fence until the board's own record of the timeout (timeOut)
        case FAILED -> waitText(s, k) + WaitBoard.TIMED_OUT;
        default -> null; // its generation is complete
      };
    }
  }
}
