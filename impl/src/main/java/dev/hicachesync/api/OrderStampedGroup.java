package dev.hicachesync.api;

import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import java.util.Arrays;
import java.util.List;

/**
 * One of the scheduler's groups with every all-reduce carrying each member's {@link CallOrder} stamp: the
 * payload is the values, then one slot per member, each member filling its own and the op's identity in the
 * others, so that every member gets every member's stamp from the same collective (no extra round trip, on
 * any transport that moves the payload). After the reduction the stamps are checked and stripped. Barriers and broadcasts pass through (the sync
 * points make neither). Scheduler thread only, as the group it wraps.
 */
final class OrderStampedGroup implements ProcessGroup {
  private final ProcessGroup group;
  private final CallOrder order;
  private final int me;
  private final int size;

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

  private long[] stamped(String callSite, ReduceOp op, long[] values) {
    int n = values.length;
    long[] v = Arrays.copyOf(values, n + size);
    Arrays.fill(v, n, n + size, identity(op));
    v[n + me] = order.stamp();
    long[] r = group.allReduce(callSite, op, v, v);
    order.check(callSite, group, r, n);
    return r;
  }

  private static long identity(ReduceOp op) {
    return switch (op) {
      case MIN -> Long.MAX_VALUE;
      case MAX -> Long.MIN_VALUE;
      case SUM -> 0;
    };
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
