package dev.hicachesync.api;

import dev.hicachesync.controller.ControllerEnv;
import dev.hicachesync.env.ManualTicker;
import dev.hicachesync.env.Ticker;
import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.env.TransferKind;
import java.util.ArrayDeque;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The environment of a rank built by {@link HiCacheRank#builder}: time is the scheduler's step count (one
 * tick per {@link HiCacheRank#checkHicacheEvents}), a copy completes one step after it starts, and
 * background I/O runs, in the order it was started, at the start of the next step. Deterministic and
 * identical on every rank, so an engine without a device of its own (the worked example, tests) gets the
 * protocol's behaviour with no timing skew. A GPU engine supplies CUDA events instead.
 *
 * <p>Scheduler thread, or one of the rank's stepped threads while the scheduler waits for it: the
 * background work due at a step boundary is handed to the rank's I/O or backup thread ({@code
 * ControllerThreads#around}) and the scheduler waits for each, so the order, and every answer, are as if it
 * ran here.
 */
final class StepEnvironment implements ControllerEnv {
  private final ManualTicker clock = new ManualTicker();
  private final ArrayDeque<Pending> queue = new ArrayDeque<>();

  @Override
  public Ticker clock() {
    return clock;
  }

  /** Moves time on by one step and runs the background work that is due. */
  void beginStep() {
    clock.advance(1);
    while (!queue.isEmpty() && queue.peek().tick <= clock.ticks()) {
      queue.poll().work.run();
    }
  }

  @Override
  public TransferEvent copy(TransferKind kind, int pages) {
    return new StepCopy(clock.ticks() + 1);
  }

  /**
   * A copy done one step after it started, or once awaited: the rank blocks on its own stream until that
   * copy lands, so that copy alone completes early and the clock (the step count, which prefetch timeouts
   * read) does not move. Every rank of a domain makes the same calls, so they await the same copies.
   */
  private final class StepCopy implements TransferEvent {
    private final long done;
    private volatile boolean awaited;

    StepCopy(long done) {
      this.done = done;
    }

    @Override
    public boolean isDone() {
      return awaited || clock.ticks() >= done;
    }

    @Override
    public void await() {
      awaited = true;
    }
  }

  @Override
  public void background(TransferKind kind, int pages, Consumer<Boolean> work) {
    queue.add(new Pending(clock.ticks() + 1, () -> work.accept(true)));
  }

  @Override
  public void awaitCondition(BooleanSupplier condition) {
    while (!condition.getAsBoolean()) {
      Pending p = queue.poll();
      if (p == null) {
        throw new IllegalStateException("the scheduler waits for its own I/O, but none is pending");
      }
      if (clock.ticks() < p.tick) {
        clock.set(p.tick);
      }
      p.work.run();
    }
  }

  /** Returns the background operations not yet run. */
  int pending() {
    return queue.size();
  }

  private record Pending(long tick, Runnable work) {}
}
