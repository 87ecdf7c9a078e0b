package dev.hicachesync.collective;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.concurrent.locks.LockSupport;

/**
 * One member's place in a {@link Rendezvous}: its arrival counter, the call it made in each of the last
 * two generations (descriptor and a copy of its payload) and the thread to unpark.
 *
 * <p>Publication: the owner writes generation k's call into buffer {@code k & 1}, then counts its arrival
 * with a CAS of {@link #seq} from k to k+1 (a volatile write: release). A member that reads {@code seq > k}
 * (a volatile read: acquire) then sees the call. Why two buffers: every member reads every other member's
 * generation-k buffer after it has seen all arrivals, possibly after the owner already returned. The owner
 * writes buffer {@code k & 1} again only in generation k+2, which it enters after every member arrived in
 * k+1, that is, after every member has finished reading generation k.
 *
 * <p>Why a CAS for the arrival: a member that times out fences a late member ({@code seq} k to
 * {@link #FENCED}); the CAS decides, once for all members, whether the late member arrived in k or not, so
 * that a generation completes for every member or fails for every member.
 */
final class MemberSlot extends CacheLinePadding {
  static final int BARRIER = 0;
  static final int ALL_REDUCE = 1;
  static final int BROADCAST = 2;
  /** {@link #seq} of a member fenced out by a timeout: it never arrives again. */
  static final long FENCED = Long.MIN_VALUE;

  // Field updaters rather than VarHandles: an interpreted VarHandle call boxes its long arguments, and a
  // collective must not allocate even before the JIT has compiled it.
  private static final AtomicLongFieldUpdater<MemberSlot> SEQ =
      AtomicLongFieldUpdater.newUpdater(MemberSlot.class, "seq");
  private static final AtomicReferenceFieldUpdater<MemberSlot, Thread> PARKED =
      AtomicReferenceFieldUpdater.newUpdater(MemberSlot.class, Thread.class, "parked");

  private final int rank;

  /** Generations this member has arrived in (k+1 once it arrived in k), or {@link #FENCED}. */
  private volatile long seq;
  /** The thread parked on this slot, or null while it spins or is not waiting. */
  private volatile Thread parked;
  /**
   * The owner's claim: {@code 2k} between calls (k calls made), {@code 2k+1} inside call k. CAS-claimed so
   * that two threads of one rank in one group collide instead of corrupting the buffers.
   */
  private final MemberClaim state = new MemberClaim();

  // Generation k's call in buffer k & 1: kind, op or root and length packed into one long, and the site.
  private long shape0;
  private long shape1;
  private String site0;
  private String site1;
  private long[] values0 = new long[INITIAL_CAPACITY];
  private long[] values1 = new long[INITIAL_CAPACITY];

  /** Payload capacity made at start (grown by the owner when a longer payload comes). */
  static final int INITIAL_CAPACITY = 16;

  /** The member's rank. A plain final read: the JIT inlines it on the all-reduce path. */
  int rank() {
    return rank;
  }

  /** {@link #seq}: a volatile read, as the field's was. */
  long seq() {
    return seq;
  }

  MemberSlot(int rank) {
    this.rank = rank;
  }

  /** Returns the owner's claim state (see {@link #state}). */
  long state() {
    return state.get();
  }

  /** Claims call {@code state / 2}; false when another thread of this rank got there first. */
  boolean claim(long state) {
    return (state & 1) == 0 && this.state.compareAndSet(state, state + 1);
  }

  /**
   * Ends the call claimed from {@code state}: a release store, no fence needed (owner only). The next call
   * is generation k+1 only if this one's arrival was {@code counted}; a call that failed before it counted
   * (or was fenced out) leaves the member in generation k, where its counter still is.
   */
  void release(long state, boolean counted) {
    this.state.lazySet(counted ? state + 2 : state);
  }

  /**
   * Records generation {@code k}'s call; the payload (all-reduce, or the root's broadcast) is copied in,
   * so the caller may reuse its array as soon as the call returns.
   */
  void record(long k, int kind, ReduceOp op, int root, String site, int length, long[] payload) {
    long shape = pack(kind, op, root, length);
    boolean odd = (k & 1) != 0;
    if (payload != null) {
      long[] buf = odd ? values1 : values0;
      if (buf.length < length) {
        buf = new long[Math.max(length, 2 * buf.length)];
        if (odd) {
          values1 = buf;
        } else {
          values0 = buf;
        }
      }
      System.arraycopy(payload, 0, buf, 0, length);
    }
    if (odd) {
      shape1 = shape;
      site1 = site;
    } else {
      shape0 = shape;
      site0 = site;
    }
  }

  /** Counts the arrival in generation {@code k}; false when a timed-out member fenced this one out. */
  boolean arrive(long k) {
    return SEQ.compareAndSet(this, k, k + 1);
  }

  /** Fences this member out of generation {@code k} if it has not arrived; true when it was fenced. */
  boolean fence(long k) {
    return SEQ.compareAndSet(this, k, FENCED);
  }

  long shape(long k) {
    return (k & 1) != 0 ? shape1 : shape0;
  }

  String site(long k) {
    return (k & 1) != 0 ? site1 : site0;
  }

  /** Generation {@code k}'s payload copy (read-only for others). */
  long[] values(long k) {
    return (k & 1) != 0 ? values1 : values0;
  }

  /** Returns whether generation {@code k}'s call pairs with {@code other}'s under INV-1. */
  boolean matches(MemberSlot other, long k) {
    String a = site(k);
    String b = other.site(k);
    return shape(k) == other.shape(k) && (a == b || a.equals(b));
  }

  static int kind(long shape) {
    return (int) (shape & 0xF);
  }

  private static final ReduceOp[] OPS = ReduceOp.values();

  static ReduceOp op(long shape) {
    int o = (int) ((shape >>> 4) & 0xF);
    return o == 0 ? null : OPS[o - 1];
  }

  static int root(long shape) {
    return (int) ((shape >>> 8) & 0xFF_FFFF) - 1;
  }

  static int length(long shape) {
    return (int) (shape >>> 32);
  }

  /** kind in bits 0-3, op ordinal + 1 in 4-7, root + 1 in 8-31, length in 32-63. */
  static long pack(int kind, ReduceOp op, int root, int length) {
    return kind | (long) (op == null ? 0 : op.ordinal() + 1) << 4 | (long) ((root + 1) & 0xFF_FFFF) << 8
        | (long) length << 32;
  }

  /** Returns generation {@code k}'s call as INV-1 describes it (slow paths only). */
  Call toCall(long k) {
    return describe(shape(k), site(k));
  }

  static Call describe(long shape, String site) {
    long[] values = new long[length(shape)];
    return switch (kind(shape)) {
      case ALL_REDUCE -> Call.allReduce(site, op(shape), values);
      case BROADCAST -> Call.broadcast(site, root(shape), values);
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

  /**
   * Wakes the owner if it registered (if it has not parked yet, the permit makes its park return at once),
   * taking its registration so that of several members waking the group only one unparks it (each unpark
   * of a parked thread is a futex call); returns whether this call woke it.
   */
  boolean unpark() {
    Thread t = parked;
    if (t != null && PARKED.compareAndSet(this, t, null)) {
      LockSupport.unpark(t);
      return true;
    }
    return false;
  }
}
