package dev.hicachesync.env;

/**
 * Completion of one asynchronous transfer (a CUDA event, a simulated copy, a storage read).
 *
 * <p>Any thread may call either method. Once {@link #isDone()} has returned {@code true} it keeps doing
 * so, and the destination then holds the data.
 */
public interface TransferEvent {

  /** Returns whether the transfer has completed; never blocks. Any thread. */
  boolean isDone();

  /**
   * Blocks until the transfer has completed. Any thread that does not itself drive completion (for a
   * simulated event: not the thread that advances the {@link Ticker}).
   *
   * @throws IllegalStateException if the waiting thread is interrupted (its interrupt flag is set again)
   */
  void await();

  /** An event that is already complete (empty transfers, synchronous backends). */
  static TransferEvent completed() {
    return Completed.INSTANCE;
  }
}
