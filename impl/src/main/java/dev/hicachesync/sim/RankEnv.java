package dev.hicachesync.sim;

import dev.hicachesync.controller.ControllerEnv;
import dev.hicachesync.env.ManualTicker;
import dev.hicachesync.env.Ticker;
import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.env.TransferKind;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One rank's simulated environment: its clock, copy latencies, background I/O as an event queue in virtual
 * time ordered by (tick, seq), storage read failures, and rank-local conditions for faults.
 *
 * <p>Rank thread only. Each component draws from its own {@link SplittableRandom} split off the run's seed
 * and the rank, so a rank's environment is a pure function of (seed, rank, its own call sequence). The
 * per-rank {@code skew} (1..3) makes some ranks' copies and I/O systematically slower, which is what makes
 * an unsynchronized decision differ across ranks.
 */
final class RankEnv implements ControllerEnv {
  private final ManualTicker clock = new ManualTicker();
  private final PriorityQueue<Pending> queue = new PriorityQueue<>();
  private final SplittableRandom copies;
  private final SplittableRandom io;
  private final SplittableRandom failures;
  private final SplittableRandom local;
  private final int skew;
  private final double readFailure;
  private final int rank;
  private long seq;

  RankEnv(long seed, int rank, double readFailure) {
    SplittableRandom root = new SplittableRandom(seed ^ 0x5DEECE66DL);
    SplittableRandom mine = root.split();
    for (int r = 0; r < rank; r++) {
      mine = root.split(); // the r-th split is rank r's: independent of the world size
    }
    this.copies = mine.split();
    this.io = mine.split();
    this.failures = mine.split();
    this.local = mine.split();
    this.skew = 1 + mine.nextInt(3);
    this.readFailure = readFailure;
    this.rank = rank;
  }

  @Override
  public Ticker clock() {
    return clock;
  }

  /** Returns this rank's virtual time. */
  long now() {
    return clock.ticks();
  }

  /** Starts step {@code step}: the clock moves to it (if behind) and due background work runs. */
  void beginStep(long step) {
    if (clock.ticks() < step) {
      clock.set(step);
    }
    while (!queue.isEmpty() && queue.peek().tick <= clock.ticks()) {
      queue.poll().work.run();
    }
  }

  @Override
  public TransferEvent copy(TransferKind kind, int pages) {
    return new SimEvent(clock, clock.ticks() + copies.nextInt(1 + 2 * skew));
  }

  @Override
  public void background(TransferKind kind, int pages, Consumer<Boolean> work) {
    long latency = pages == 0 ? io.nextInt(1 + 2 * skew) : 1 + io.nextInt(2 + 3 * skew);
    boolean ok = kind != TransferKind.STORAGE_READ || pages == 0 || failures.nextDouble() >= readFailure;
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

  /** A rank-local "batch full" condition (B10's fault): true on about a third of this rank's steps. */
  boolean localBatchFull() {
    return local.nextInt(3) == 0;
  }

  /** Returns the pending background operations (0 when the rank's I/O is quiet). */
  int pending() {
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
