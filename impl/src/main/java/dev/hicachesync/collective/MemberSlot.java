package dev.hicachesync.collective;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.concurrent.locks.LockSupport;

/**
 * One member's place in a {@link Rendezvous}: the call it made in the current generation, its payload
 * and the thread to unpark when the generation completes.
 *
 * <p>Publication: the owner claims the slot ({@link #claim}), writes the call fields and the payload,
 * then increments the rendezvous' arrival counter; that atomic increment is what publishes the fields to
 * the member that completes the generation (the chain of increments is a release sequence). The fields
 * are read by others only after that, or on diagnostic paths (timeout message, wait board), where a racy
 * read only blurs a message.
 */
final class MemberSlot implements WaitBoard.Waiter {
  static final int BARRIER = 0;
  static final int ALL_REDUCE = 1;
  static final int BROADCAST = 2;

  // Field updaters rather than VarHandles: an interpreted VarHandle call boxes its long arguments, and a
  // collective must not allocate even before the JIT has compiled it.
  private static final AtomicLongFieldUpdater<MemberSlot> CLAIMED =
      AtomicLongFieldUpdater.newUpdater(MemberSlot.class, "claimed");
  private static final AtomicReferenceFieldUpdater<MemberSlot, Thread> PARKED =
      AtomicReferenceFieldUpdater.newUpdater(MemberSlot.class, Thread.class, "parked");

  final int rank;
  private final String groupName;

  /** The last generation this member joined (-1: none); CAS-claimed so two threads of one rank collide. */
  private volatile long claimed = -1;
  /** The generation this member waits in, or -1 when it is not in a call (wait board, timeout message). */
  volatile long waitingIn = -1;
  /** The thread parked on this slot, or null while it spins or is not waiting. */
  private volatile Thread parked;

  // The current call; written by the owner before it counts its arrival.
  int kind;
  ReduceOp op;
  int root = -1;
  String site;
  int length;
  /** How long this member waits actively before it parks; owner thread only. */
  final WaitPolicy.Patience patience;

  /** The payload of an all-reduce or of the root's broadcast (the caller's array); null otherwise. */
  long[] values;

  MemberSlot(int rank, String groupName, WaitPolicy policy) {
    this.rank = rank;
    this.groupName = groupName;
    this.patience = policy.newPatience();
  }

  /** Returns the last generation joined, as read before {@link #claim}. */
  long lastClaimed() {
    return claimed;
  }

  /** Claims generation {@code k}; false when another thread of this rank claimed it first. */
  boolean claim(long seen, long k) {
    return CLAIMED.compareAndSet(this, seen, k);
  }

  /**
   * Records the call. The caller's {@code payload} is referenced, not copied: it is read only by the
   * generation's finisher, while every member (its owner included) is still inside the call, so a caller
   * that reuses its array after the call returns cannot change what others reduce.
   */
  void record(int kind, ReduceOp op, int root, String site, int length, long[] payload) {
    this.kind = kind;
    this.op = op;
    this.root = root;
    this.site = site;
    this.length = length;
    this.values = payload;
  }

  /** Returns whether this call pairs with {@code other}'s under INV-1 (kind with op or root, site, length). */
  boolean matches(MemberSlot other) {
    return kind == other.kind && op == other.op && root == other.root && length == other.length
        && (site == other.site || site.equals(other.site));
  }

  /** Returns the call as INV-1 describes it (slow paths only). */
  Call toCall() {
    return describe(kind, op, root, site, length);
  }

  static Call describe(int kind, ReduceOp op, int root, String site, int length) {
    long[] shape = new long[length];
    return switch (kind) {
      case ALL_REDUCE -> Call.allReduce(site, op, shape);
      case BROADCAST -> Call.broadcast(site, root, shape);
      default -> Call.barrier(site);
    };
  }

  /** Registers the owner to be woken; the owner re-checks completion after this, then parks. */
  void registerPark(Thread me) {
    parked = me;
  }

  /**
   * Clears the owner's registration, only if it is still its own: a second thread of this rank (a misuse
   * that is reported) must not lose its wake-up.
   */
  void clearPark(Thread me) {
    PARKED.compareAndSet(this, me, null);
  }

  /** Wakes the owner if it registered (if it has not parked yet, the permit makes its park return at once). */
  void unpark() {
    Thread t = parked;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  @Override
  public int rank() {
    return rank;
  }

  @Override
  public String waitingAt() {
    if (waitingIn < 0) {
      return null;
    }
    return groupName + " at " + site + " (" + toCall().kind() + ")";
  }
}
