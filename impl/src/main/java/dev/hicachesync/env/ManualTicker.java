package dev.hicachesync.env;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link Ticker} advanced by hand (tests, the simulator) that wakes threads blocked in {@link
 * #awaitTicks(long)} whenever it moves.
 *
 * <p>Thread-safe: any thread may read or advance it; advancing is expected from one driver thread.
 */
public final class ManualTicker implements Ticker {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition moved = lock.newCondition();

  /** Current tick; written under {@link #lock}, read without it (volatile). */
  private volatile long now;

  /** Creates a clock at tick 0. */
  public ManualTicker() {
    this(0L);
  }

  /** Creates a clock at {@code start}. */
  public ManualTicker(long start) {
    this.now = start;
  }

  @Override
  public long ticks() {
    return now;
  }

  /** Moves the clock forward by {@code delta} ≥ 0 ticks and returns the new tick. Any thread. */
  public long advance(long delta) {
    if (delta < 0) {
      throw new IllegalArgumentException("a clock cannot go back: delta " + delta);
    }
    lock.lock();
    try {
      now += delta;
      moved.signalAll();
      return now;
    } finally {
      lock.unlock();
    }
  }

  /** Sets the clock to {@code tick}, which must not be earlier than now. Any thread. */
  public void set(long tick) {
    lock.lock();
    try {
      if (tick < now) {
        throw new IllegalArgumentException("a clock cannot go back: " + now + " -> " + tick);
      }
      now = tick;
      moved.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void awaitTicks(long target) throws InterruptedException {
    lock.lock();
    try {
      while (now < target) {
        moved.await();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public String toString() {
    return "ManualTicker[" + now + "]";
  }
}
