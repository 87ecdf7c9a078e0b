package dev.hicachesync.api;

import dev.hicachesync.controller.ControllerEnv;
import dev.hicachesync.controller.ControllerThreads;
import dev.hicachesync.env.ManualTicker;
import dev.hicachesync.env.Ticker;
import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.env.TransferKind;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The environment of a rank built with {@link ThreadMode#FREE_RUNNING}: time is the scheduler's step count
 * (prefetch timeouts count steps), a copy completes when the copy-completion thread gets to it, storage
 * reads and writes run on the prefetch I/O and backup threads as soon as they are handed over, and a
 * scheduler that must wait for its own I/O (a later pipeline stage) waits for those threads.
 *
 * <p>Threads: the clock is advanced by the scheduler; every method may be called from any of the rank's
 * threads (the prefetch I/O thread hands on its next batch).
 */
final class FreeRunningEnvironment implements ControllerEnv {
  private final ManualTicker clock = new ManualTicker();
  private final ControllerThreads threads;

  FreeRunningEnvironment(ControllerThreads threads) {
    this.threads = threads;
  }

  @Override
  public Ticker clock() {
    return clock;
  }

  /** Moves time on by one step. Scheduler thread. */
  void beginStep() {
    clock.advance(1);
  }

  @Override
  public TransferEvent copy(TransferKind kind, int pages) {
    FlagEvent ev = new FlagEvent();
    threads.onThreadOf(kind, ev::complete);
    return ev;
  }

  @Override
  public void background(TransferKind kind, int pages, Consumer<Boolean> work) {
    threads.onThreadOf(kind, () -> work.accept(true));
  }

  @Override
  public void awaitCondition(BooleanSupplier condition) {
    threads.awaitCondition(condition);
  }

  /** A copy's completion: set once by the copy-completion thread; {@code volatile} publishes it. */
  private final class FlagEvent implements TransferEvent {
    private volatile boolean done;

    void complete() {
      done = true;
    }

    @Override
    public boolean isDone() {
      return done;
    }

    @Override
    public void await() {
      if (!done) {
        threads.awaitCondition(this::isDone);
      }
    }
  }
}
