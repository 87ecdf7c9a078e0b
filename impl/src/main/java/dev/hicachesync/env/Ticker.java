package dev.hicachesync.env;

/**
 * A logical clock: a monotonically non-decreasing tick count owned by whoever drives the run.
 *
 * <p>Any thread may call {@link #ticks()}. Implementations that can wake waiters (such as {@link
 * ManualTicker}) override {@link #awaitTicks(long)}; the default polls, which is good enough for a clock
 * that some other thread advances quickly.
 */
public interface Ticker {

  /** Returns the current tick; never smaller than a value returned before. Any thread. */
  long ticks();

  /**
   * Blocks until {@link #ticks()} is at least {@code target}. Any thread except the one that advances the
   * clock (which would wait for itself).
   *
   * @throws InterruptedException if the waiting thread is interrupted
   */
  default void awaitTicks(long target) throws InterruptedException {
    // Why poll: a generic clock has no way to notify; 50 µs keeps a waiting thread off the 2 shared cores.
    while (ticks() < target) {
      if (Thread.interrupted()) {
        throw new InterruptedException("awaiting tick " + target);
      }
      java.util.concurrent.locks.LockSupport.parkNanos(50_000L);
    }
  }
}
