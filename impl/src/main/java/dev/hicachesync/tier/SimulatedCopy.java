package dev.hicachesync.tier;

import dev.hicachesync.env.Ticker;
import dev.hicachesync.env.TransferEvent;

/**
 * A simulated asynchronous copy: done once {@code ticker.ticks() >= readyAt}; the bytes move when the
 * completion is first observed.
 *
 * <p>Why move the bytes late rather than at issue: a protocol bug that frees or reuses a source slot while
 * the copy is in flight (INV-7) then corrupts the destination, as it would on a GPU, and data checks see it.
 * Any thread; the copy runs once, under this object's lock.
 */
final class SimulatedCopy implements TransferEvent {
  private final Ticker ticker;
  private final long readyAt;
  private final String what;
  /** The data movement; null once run. Guarded by this. */
  private Runnable pending;
  private volatile boolean done;

  SimulatedCopy(Ticker ticker, long readyAt, Runnable copy, String what) {
    this.ticker = ticker;
    this.readyAt = readyAt;
    this.pending = copy;
    this.what = what;
  }

  /** Returns the tick at which the copy completes. */
  long readyAt() {
    return readyAt;
  }

  @Override
  public boolean isDone() {
    if (done) {
      return true;
    }
    if (ticker.ticks() < readyAt) {
      return false;
    }
    synchronized (this) {
      if (pending != null) {
        pending.run();
        pending = null;
      }
    }
    done = true;
    return true;
  }

  @Override
  public void await() {
    try {
      ticker.awaitTicks(readyAt);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while awaiting " + this, e);
    }
    isDone();
  }

  @Override
  public String toString() {
    return "SimulatedCopy[" + what + ", ready at " + readyAt + (done ? ", done" : "") + "]";
  }
}
