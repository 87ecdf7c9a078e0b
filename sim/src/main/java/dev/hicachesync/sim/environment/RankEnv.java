package dev.hicachesync.sim.environment;

import dev.hicachesync.controller.ControllerEnv;
import dev.hicachesync.env.ManualTicker;
import dev.hicachesync.env.Ticker;
import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.env.TransferKind;
import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One rank's simulated environment: its clock, copy latencies, background I/O as an event queue in virtual
 * time ordered by (tick, seq), storage read failures, and rank-local conditions for faults.
 *
 * <p>Rank thread, or one of the rank's stepped threads ({@code controller.ControllerThreads}) while the
 * rank thread waits for it in a hand-off: the I/O work this queue runs executes there and may queue more
 * here; the hand-off orders every access, so the calls reach {@link Timing} in the same order. What takes how long comes from the rank's {@link Timing}, a pure function of
 * (seed, rank, its own call sequence); this class only keeps the clock and runs the queue.
 */
public final class RankEnv implements ControllerEnv {
  private final ManualTicker clock = new ManualTicker();
  private final PriorityQueue<Pending> queue = new PriorityQueue<>();
  private final Timing timing;
  private final int rank;
  private long seq;
  /** Environment actions a {@link SimulationRun} queued for the start of this rank's next step (0: none). */
  private long pendingDelay;
  private int pendingCompletions;
  private boolean failNextRead;

  public RankEnv(int rank, Timing timing) {
    this.rank = rank;
    this.timing = timing;
  }

  @Override
  public Ticker clock() {
    return clock;
  }

  @Override
  public boolean timeoutFires(String rid, long issueTick, long limit) {
    return timing.timeoutFires(rid, ControllerEnv.super.timeoutFires(rid, issueTick, limit));
  }

  /** Returns this rank's virtual time. */
  public long now() {
    return clock.ticks();
  }

  /**
   * Starts step {@code step}: the clock moves on by at least one tick (to the step if it is behind; a rank
   * that blocked on its own events runs ahead and stays ahead) and due background work runs.
   */
  public void beginStep(long step) {
    timing.beginStep(step);
    clock.set(Math.max(clock.ticks() + 1, step) + pendingDelay);
    pendingDelay = 0;
    for (; pendingCompletions > 0 && !queue.isEmpty(); pendingCompletions--) {
      runDue();
      Pending next = queue.peek();
      if (next != null && next.tick > clock.ticks()) {
        clock.set(next.tick); // as if this rank had waited for its next I/O: it lands in runDue
      }
    }
    pendingCompletions = 0;
    runDue();
  }

  private void runDue() {
    while (!queue.isEmpty() && queue.peek().tick <= clock.ticks()) {
      queue.poll().work.run();
    }
  }

  @Override
  public TransferEvent copy(TransferKind kind, int pages) {
    return new SimEvent(clock, clock.ticks() + timing.copyTicks(kind, pages));
  }

  @Override
  public void background(TransferKind kind, int pages, Consumer<Boolean> work) {
    long latency = timing.backgroundTicks(kind, pages);
    boolean read = kind == TransferKind.STORAGE_READ && pages > 0;
    boolean drawn = kind == TransferKind.SIDECAR_READ ? !timing.sidecarReadFails() : !read || !timing.readFails();
    boolean ok = drawn && !(read && failNextRead);
    if (read) {
      failNextRead = false;
    }
    queue.add(new Pending(clock.ticks() + latency, seq++, () -> work.accept(ok)));
  }

  @Override
  public void awaitCondition(BooleanSupplier condition) {
    while (!condition.getAsBoolean()) {
      Pending p = queue.poll();
      if (p == null) {
        throw new IllegalStateException("rank " + rank + " waits for its own I/O, but none is pending");
      }
      if (clock.ticks() < p.tick) {
        clock.set(p.tick);
      }
      p.work.run();
    }
  }

  /**
   * Queues environment actions for the start of this rank's next step (a {@link SimulationRun}'s commands;
   * called while the rank thread is parked): its clock jumps {@code ticks} further (copies complete,
   * prefetch timeouts fire), and then, {@code completions} times, to its next pending background operation
   * (a storage read or write lands). Only ever delays this rank, as a slow rank would be delayed, so the run
   * stays a pure function of the seed and the commands.
   */
  public void schedule(long ticks, int completions) {
    pendingDelay += ticks;
    pendingCompletions += completions;
  }

  /** Makes the next storage read batch this rank issues fail (called while the rank thread is parked). */
  public void failNextRead() {
    failNextRead = true;
  }

  /**
   * Runs the background work due by now, and what it queues that is due by now too: work that takes no time
   * lands within the current phase (a spec-shaped step's prefetch-thread phase lands a read the schedule
   * says lands at once).
   */
  public void landDue() {
    runDue();
  }

  /** Whether this rank's prefetch thread takes its pass at the start of this step ({@link Timing#prefetchPassRuns}). */
  public boolean prefetchPassRuns() {
    return timing.prefetchPassRuns();
  }

  /** Whether the prefetch thread passes again before this step's event check ({@link Timing#prefetchPassBeforeEvents}). */
  public boolean prefetchPassBeforeEvents() {
    return timing.prefetchPassBeforeEvents();
  }

  /** Whether I/O due by now lands right before admission ({@link Timing#landsIoBeforeAdmission}). */
  public boolean landsIoBeforeAdmission() {
    return timing.landsIoBeforeAdmission();
  }

  /** Whether a spec-shaped pass waits for every S7 outcome ({@link Timing#settlesPrefetchOutcomes}). */
  public boolean settlesPrefetchOutcomes() {
    return timing.settlesPrefetchOutcomes();
  }

  /** The L3 store as this rank sees it ({@link Timing#storageSeenBy}). */
  public dev.hicachesync.storage.StorageBackend storageSeenBy(dev.hicachesync.storage.StorageBackend store) {
    return store == null ? null : timing.storageSeenBy(store);
  }

  /** Whether the running request {@code rid} is aborted at this step ({@link Timing#abortsRunning}). */
  public boolean abortsRunning(String rid) {
    return timing.abortsRunning(rid);
  }

  /** Whether this rank's schedule policy orders the waiting queue newest first now ({@link Timing#queueOrderSkewed}). */
  public boolean queueOrderSkewed() {
    return timing.queueOrderSkewed();
  }

  /** Whether the domain checker compares each step at the next RECV ({@link Timing#comparesStepAtNextRecv}). */
  public boolean comparesStepAtNextRecv() {
    return timing.comparesStepAtNextRecv();
  }

  /** Whether this rank's prefetch thread has died by this step ({@link Timing#prefetchThreadDies}). */
  public boolean prefetchThreadDies() {
    return timing.prefetchThreadDies();
  }

  /** Whether this rank's next storage hit query raises ({@link Timing#storageHitQueryRaises}). */
  public boolean storageHitQueryRaises() {
    return timing.storageHitQueryRaises();
  }

  /** Whether this rank's clock orders LRU timestamps the other way at this step ({@link Timing#lruClockSkewed}). */
  public boolean lruClockSkewed() {
    return timing.lruClockSkewed();
  }

  /** Whether the waiting request {@code rid} is aborted on this rank at this step ({@link Timing#abortsWaiting}). */
  public boolean abortsWaiting(String rid) {
    return timing.abortsWaiting(rid);
  }

  /** The running batch is full at this step's admission, on every rank of the domain ({@link Timing#batchIsFull}). */
  public boolean batchIsFull() {
    return timing.batchIsFull();
  }

  /** Whether PD prefill request {@code rid}'s KV bootstrap is done as this rank polls it ({@link Timing#bootstrapped}). */
  public boolean bootstrapped(String rid) {
    return timing.bootstrapped(rid);
  }

  /** A rank-local "batch full" condition (B10's fault). */
  public boolean localBatchFull() {
    return timing.localBatchFull();
  }

  /** Returns the pending background operations (0 when the rank's I/O is quiet). */
  public int pending() {
    return queue.size();
  }

  private record Pending(long tick, long seq, Runnable work) implements Comparable<Pending> {
    @Override
    public int compareTo(Pending o) {
      int c = Long.compare(tick, o.tick);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }
}
