package dev.hicachesync.sync;

import dev.hicachesync.collective.ReduceOp;
import java.util.Arrays;

/**
 * Reduces one rank's local value at a sync point the way the protocol version does (PROTOCOL.md §3–§4).
 *
 * <ul>
 *   <li>{@code pre20460}: over the attn_tp group only, skipped when it has one member (the legacy {@code
 *       if world_size > 1} guard: under CP with attn_tp = 1 nothing is synced, B1); each PP stage alone.
 *   <li>{@code post20460}: over attn_cp, then attn_tp (singleton groups skipped); for MIN/MAX the two steps
 *       equal one reduction over the CP×TP grid.
 *   <li>{@code merged}, {@code unified}, {@code pipelined}: one collective over the CP×TP group ({@code pipelined}'s
 *       S123 on the layer of its asynchronous channel, which a thread of its own calls).
 * </ul>
 *
 * <p>With PP (post20460, merged, unified: HiCacheUnifiedPipeline.tla {@code EventsComplete} on stage 0,
 * {@code SchedRecvPipe} on the later stages) stage 0 reduces and forwards {@code [point, result...]} down the pipeline;
 * later stages take exactly what arrives and forward it, so every stage applies the same decision without
 * a symmetric cross-stage collective on the scheduler thread (B6, B19). The prefetch thread's layer also
 * reduces over the pp group (B7's fix on the background thread).
 *
 * <p>One thread only: the owner of the group handles (scheduler, prefetch or completion-sync thread; names in
 * {@link GroupRegistry}).
 */
public final class SyncLayer {
  private final ProtocolVersion version;
  private final SyncGroups groups;
  private final boolean forwards;
  private final SyncObserver observer;
  private long collectives;

  /** Creates the layer of one thread of one rank. */
  public SyncLayer(ProtocolVersion version, SyncGroups groups) {
    this(version, groups, SyncObserver.NONE);
  }

  /** Creates the layer of one thread of one rank that reports every reduction to {@code observer}. */
  public SyncLayer(ProtocolVersion version, SyncGroups groups, SyncObserver observer) {
    this.version = version;
    this.groups = groups;
    this.forwards = version != ProtocolVersion.PRE20460;
    this.observer = observer;
  }

  /** Returns the protocol version. */
  public ProtocolVersion version() {
    return version;
  }

  /** Returns the number of collectives this layer has issued (singleton groups skipped; sends excluded). */
  public long collectives() {
    return collectives;
  }

  /** Returns the reduction of {@code local} at {@code point} over the sync domain, as this version does it. */
  public long[] reduce(SyncPoint point, ReduceOp op, long[] local) {
    long[] result = reduceOnce(point, op, local);
    if (observer != SyncObserver.NONE) {
      observer.onReduce(point, local, result);
    }
    return result;
  }

  private long[] reduceOnce(SyncPoint point, ReduceOp op, long[] local) {
    if (forwards && !groups.decides()) {
      long[] result = receive(point, local.length);
      forward(point, result);
      return result;
    }
    long[] v = local.clone();
    String site = point.name();
    switch (version) {
      case PRE20460 -> v = maybe(groups.attnTp(), site, op, v);
      case POST20460 -> {
        v = maybe(groups.attnCp(), site, op, v);
        v = maybe(groups.attnTp(), site, op, v);
      }
      case MERGED, UNIFIED, PIPELINED -> v = maybe(groups.cpTp(), site, op, v); // HiCacheUnified.tla: HG, PFG, SYG
    }
    if (forwards && groups.pp() != null && groups.pp().size() > 1) {
      collectives++;
      v = groups.pp().allReduce(site, op, v); // background-thread syncs only: stages are not in lockstep
    }
    if (forwards) {
      forward(point, v);
    }
    return v;
  }

  /** Waits until every rank of the sync domain reached {@code point} (S6). */
  public void barrier(SyncPoint point) {
    reduce(point, ReduceOp.MAX, new long[] {0});
  }

  private long[] maybe(dev.hicachesync.collective.ProcessGroup g, String site, ReduceOp op, long[] v) {
    if (g == null || g.size() <= 1) {
      return v; // the `if world_size > 1` guard
    }
    collectives++;
    return g.allReduce(site, op, v, v); // v is this layer's own copy: reduce in place, nothing allocated per call
  }

  private void forward(SyncPoint point, long[] result) {
    if (groups.toNext() != null) {
      long[] msg = new long[result.length + 1];
      msg[0] = point.ordinal();
      System.arraycopy(result, 0, msg, 1, result.length);
      groups.toNext().send(msg);
    }
  }

  private long[] receive(SyncPoint point, int length) {
    long[] msg = groups.fromPrev().recv();
    if (msg.length != length + 1 && msg.length > 0 && msg[0] == point.ordinal()) { // the right call, another length
      throw new InvariantViolation(Invariant.PipeMatching, "stage expected " + point + "[" + length
          + "] from upstream, got " + point + "[" + (msg.length - 1) + "] " + Arrays.toString(msg));
    }
    if (msg.length != length + 1 || msg[0] != point.ordinal()) {
      throw new InvariantViolation(Invariant.CollectiveMatching,
          "stage expected " + point + "[" + length + "] from upstream, got "
              + (msg.length == 0 || msg[0] < 0 || msg[0] >= SyncPoint.values().length ? "an abort"
                  : SyncPoint.values()[(int) msg[0]] + "[" + (msg.length - 1) + "]")
              + " " + Arrays.toString(msg));
    }
    return Arrays.copyOfRange(msg, 1, msg.length);
  }
}
