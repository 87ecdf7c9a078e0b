package dev.hicachesync.controller;

import dev.hicachesync.collective.AsyncAllReduce;
import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import dev.hicachesync.sync.SpecStep;
import dev.hicachesync.sync.SyncLayer;
import dev.hicachesync.sync.SyncPoint;
import java.util.Arrays;

/**
 * The steps of {@code pipelined} (proposal #39903, closed unmerged): {@code merged}'s fused S123 issued
 * asynchronously. Each event check waits on the handle of the previous step's all-reduce, if any, and pops its
 * agreed counts ({@code SchedCheckHicacheEvents}: the wait on the handle returns); then it reads this rank's ready
 * counts and issues the next MIN on the channel of its own ({@link #checkHicacheEvents}, {@code
 * AsyncCheckHicacheEvents}), whose result the next step consumes. The prefetch steps are those of the earlier
 * versions.
 *
 * <p>Why: the MIN then overlaps the step's forward pass instead of stalling the scheduler. The price is one step of
 * latency on every decision, and the one rule the proposal's correctness rests on: the counts for the next MIN
 * are read after the previous result is consumed (bug P1 reads them before: an entry that result pops is counted
 * again, and the next result pops an entry this rank no longer has or has not completed, {@code HostSlotSafety}'s
 * HP5, checked here before any pop). Scheduler thread; {@link #checkHicacheEvents} on the channel's thread.
 */
final class PipelinedEventChecks extends HiCacheSyncSteps {
  private final RankState s;
  /** The asynchronous channel's layer: called on the channel's thread only, one call at a time. */
  private SyncLayer asyncSync;
  private AsyncAllReduce channel;
  private PipelinedFaults faults = PipelinedFaults.NONE;
  /** The handle of the all-reduce issued at the previous step, or null. */
  private AsyncAllReduce.Work inFlight;

  PipelinedEventChecks(RankState s) {
    super(s);
    this.s = s;
  }

  @Override
  public void useAsyncEventCheck(SyncLayer layer, AsyncAllReduce asyncChannel, PipelinedFaults f) {
    if (layer == null || layer == s.sync() || layer == s.prefetchSync()) {
      throw new IllegalArgumentException("the asynchronous S123 needs a layer on groups of its own");
    }
    this.asyncSync = layer;
    this.channel = asyncChannel;
    this.faults = f;
  }

  @Override
  public void checkEvents() {
    if (asyncSync == null) {
      throw new IllegalStateException("version pipelined issues S123 on an asynchronous channel of its own:"
          + " CacheController.useAsyncEventCheck was not called");
    }
    long[] before = readyCounts();
    if (inFlight != null) {
      long[] agreed = inFlight.waitResult(); // work.wait(): the previous step's MIN
      inFlight = null;
      consume(agreed, before);
    }
    long[] local = faults.countsBeforeConsuming() ? before : readyCounts(); // P1: read before consuming
    if (!faults.asyncOff()) {
      inFlight = channel.start(() -> checkHicacheEvents(local));
    }
    s.after(SyncPoint.S123);
  }

  /** The asynchronous S123: the MIN over the channel's groups, on the channel's thread (all_reduce, async_op=True). */
  @SpecStep(SpecStep.Actor.ASYNC_HANDLE)
  private long[] checkHicacheEvents(long[] local) {
    return asyncSync.reduce(SyncPoint.S123, ReduceOp.MIN, local);
  }

  /** [write acks done, load acks done, revokes, backup acks, host releases] ready on this rank now. */
  private long[] readyCounts() {
    boolean storage = s.storage().attached();
    return new long[] {
      s.acks().writesDone(),
      s.acks().loadsDone(),
      storage ? s.queues().revokesReady() : 0,
      storage ? s.queues().backupAcksReady() : 0,
      storage ? s.queues().releasesReady() : 0
    };
  }

  /** Pops the agreed counts, each no more than this rank has ready ({@code ready}): HP5 of HostSlotSafety. */
  private void consume(long[] agreed, long[] ready) {
    for (int i = 0; i < agreed.length; i++) {
      if (agreed[i] > ready[i]) {
        throw new InvariantViolation(Invariant.HostSlotSafety, "HP5: the asynchronous S123's agreed counts "
            + Arrays.toString(agreed) + " pop more than this rank has ready " + Arrays.toString(ready)
            + " (an entry consumed twice, or before its transfer completed here)");
      }
    }
    s.acks().popWrites((int) agreed[0]);
    s.acks().popLoads((int) agreed[1]);
    s.queues().drain((int) agreed[2], (int) agreed[3], (int) agreed[4]);
  }
}
