package dev.hicachesync.api;

import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import java.util.Arrays;
import java.util.List;

/**
 * One of the scheduler's groups with every all-reduce carrying each member's {@link CallOrder} stamp, so that
 * every member sees a skipped call or a step apart at the sync point where they meet (no extra round trip
 * while the stamps agree, on any transport that moves the payload). After the reduction the stamps are checked
 * and stripped. Barriers and broadcasts pass through (the sync points make neither). Scheduler thread only,
 * as the group it wraps.
 *
 * <p>Payload: the values, then two slots, {@code stamp} and {@code -stamp}. Under MIN (or MAX) the two give
 * every member the lowest and the highest stamp, whatever the group's size. They are equal and show no skip on
 * every correct step, which then costs two longs more than the bare collective. Otherwise every member saw
 * the same two slots (an all-reduce's result is the same everywhere), so every member makes one more
 * all-reduce on the same group, one slot per member, to learn whose stamp differs and name it ({@link
 * CallOrder#check}). A SUM carries the per-member slots in its one collective (no sync point sums).
 */
final class OrderStampedGroup implements ProcessGroup {
  private final ProcessGroup group;
  private final CallOrder order;
  private final int me;
  private final int size;
  private long[] payload = new long[0];

  OrderStampedGroup(ProcessGroup group, CallOrder order) {
    this.group = group;
    this.order = order;
    this.me = group.members().indexOf(group.rank());
    this.size = group.size();
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public List<Integer> members() {
    return group.members();
  }

  @Override
  public int rank() {
    return group.rank();
  }

  @Override
  public String name() {
    return group.name();
  }

  @Override
  public long[] allReduce(String callSite, ReduceOp op, long[] values) {
    return Arrays.copyOf(stamped(callSite, op, values), values.length);
  }

  @Override
  public long[] allReduce(String callSite, ReduceOp op, long[] values, long[] out) {
    long[] r = stamped(callSite, op, values);
    System.arraycopy(r, 0, out, 0, values.length);
    return out;
  }

  /** The reduction of {@code values} and the stamps, in {@link #payload} (reused: the group copies it in). */
  private long[] stamped(String callSite, ReduceOp op, long[] values) {
    int n = values.length;
    long stamp = order.stamp();
    if (op == ReduceOp.SUM) {
      long[] v = payload(n + size);
      System.arraycopy(values, 0, v, 0, n);
      Arrays.fill(v, n, n + size, 0);
      v[n + me] = stamp;
      long[] r = group.allReduce(callSite, op, v, v);
      order.check(callSite, group, r, n);
      return r;
    }
    long[] v = payload(n + 2);
    System.arraycopy(values, 0, v, 0, n);
    v[n] = stamp;
    v[n + 1] = -stamp;
    long[] r = group.allReduce(callSite, op, v, v);
    long low = op == ReduceOp.MIN ? r[n] : -r[n + 1];
    long high = op == ReduceOp.MIN ? -r[n + 1] : r[n];
    if (low != high || low % CallOrder.CODES != 0) {
      order.check(callSite, group, eachStamp(callSite, stamp), 0);
    }
    return r;
  }

  /** Every member's stamp in member order: one more all-reduce, made by every member alike. */
  private long[] eachStamp(String callSite, long stamp) {
    long[] each = new long[size];
    Arrays.fill(each, Long.MAX_VALUE);
    each[me] = stamp;
    return group.allReduce(callSite, ReduceOp.MIN, each, each);
  }

  private long[] payload(int length) {
    if (payload.length != length) {
      payload = new long[length];
    }
    return payload;
  }

  @Override
  public void barrier(String callSite) {
    group.barrier(callSite);
  }

  @Override
  public long[] broadcast(String callSite, int rootRank, long[] values) {
    return group.broadcast(callSite, rootRank, values);
  }
}
