package dev.hicachesync.trace;

import dev.hicachesync.collective.CollectiveException;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * A {@link ProcessGroup} that records each completed call of its owner as a {@link CollectiveRecord} (after
 * the call returned, on the owning thread: the order {@code SpecEvents} relies on), and a failed call as a
 * {@link RankFailedRecord} before rethrowing.
 *
 * <p>The seam for recording an engine's collectives without touching the engine: wrap the handles it is
 * given. Wrap only when recording is on; unwrapped handles cost nothing. Call sites are recorded as given,
 * so they must be the spec's site names ({@code RECV}, {@code S1}..{@code S7}, {@code S123}); a barrier is
 * recorded as a MAX over an empty value, a broadcast as a MAX (only the root's value is non-zero).
 */
public final class TracingProcessGroup implements ProcessGroup {
  private final ProcessGroup inner;
  private final TraceRecorder recorder;
  private final String kind;
  private final String channel;
  private final int stage;
  private final LongSupplier step;

  /**
   * Wraps {@code inner}.
   *
   * @param kind the spec's group kind: {@code domain}, {@code attn_cp} or {@code attn_tp}
   * @param channel the owning thread: {@code sched} or {@code pf}
   * @param stage the group's position in its sync points' chain (1 = first group reduced over)
   * @param step the owner's current scheduler step
   */
  public TracingProcessGroup(ProcessGroup inner, TraceRecorder recorder, String kind, String channel, int stage,
      LongSupplier step) {
    this.inner = inner;
    this.recorder = recorder;
    this.kind = kind;
    this.channel = channel;
    this.stage = stage;
    this.step = step;
  }

  @Override
  public int size() {
    return inner.size();
  }

  @Override
  public List<Integer> members() {
    return inner.members();
  }

  @Override
  public int rank() {
    return inner.rank();
  }

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public long[] allReduce(String callSite, ReduceOp op, long[] values) {
    long[] local = values.clone();
    long[] result = call(() -> inner.allReduce(callSite, op, values));
    record(callSite, op == ReduceOp.MIN ? "MIN" : "MAX", local, result);
    return result;
  }

  @Override
  public void barrier(String callSite) {
    call(() -> {
      inner.barrier(callSite);
      return new long[0];
    });
    record(callSite, "MAX", new long[0], new long[0]);
  }

  @Override
  public long[] broadcast(String callSite, int rootRank, long[] values) {
    long[] local = rank() == rootRank ? values.clone() : new long[values.length];
    long[] result = call(() -> inner.broadcast(callSite, rootRank, values));
    record(callSite, "MAX", local, result);
    return result;
  }

  /**
   * Records a broadcast of a one-member group, which its owner does not call (nothing to agree on): the spec
   * still has the collective, the step's rendezvous of a one-rank domain. Returns {@code values}.
   */
  public long[] broadcastAlone(String callSite, long[] values) {
    if (size() != 1) {
      throw new IllegalStateException("broadcastAlone on a group of " + size() + " members");
    }
    record(callSite, "MAX", values.clone(), values.clone());
    return values;
  }

  private long[] call(java.util.function.Supplier<long[]> c) {
    try {
      return c.get();
    } catch (CollectiveException e) {
      recorder.failed(rank(), step.getAsLong(), e.getClass().getSimpleName() + ": "
          + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
      throw e;
    }
  }

  private void record(String site, String op, long[] local, long[] result) {
    recorder.collective(rank(), step.getAsLong(), kind, channel, members(), site, stage, op, local, result,
        null, null);
  }
}
