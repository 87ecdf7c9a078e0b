package dev.hicachesync.collective;

/**
 * A one-way FIFO channel from one pipeline stage's rank to the next (send/recv of the decided counts,
 * PROTOCOL.md §4, PP). Sends never block; receives block up to the fabric's timeout.
 *
 * <p>One sending thread and one receiving thread.
 */
public interface PipeChannel {

  /** Returns the sending rank. */
  int fromRank();

  /** Returns the receiving rank. */
  int toRank();

  /** Enqueues a copy of {@code values}. Caller: the sender. */
  void send(long[] values);

  /**
   * Returns the next message, blocking until one arrives. Caller: the receiver.
   *
   * @throws CollectiveTimeoutException naming the silent sender and where every rank waits
   */
  long[] recv();

  /** Returns the next message, or {@code null} if none is queued; never blocks. Caller: the receiver. */
  long[] poll();
}
