package dev.hicachesync.collective;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A {@link PipeChannel} between two threads of a {@link LocalFabric}: an unbounded FIFO of copies. */
final class LocalPipe implements PipeChannel {
  private final String name;
  private final int from;
  private final int to;
  private final long timeoutNanos;
  private final WaitBoard board;
  private final LinkedBlockingQueue<long[]> queue = new LinkedBlockingQueue<>();
  /** Messages received so far; receiver thread only. */
  private long received;

  LocalPipe(String name, int from, int to, long timeoutNanos, WaitBoard board) {
    this.name = name;
    this.from = from;
    this.to = to;
    this.timeoutNanos = timeoutNanos;
    this.board = board;
  }

  @Override
  public int fromRank() {
    return from;
  }

  @Override
  public int toRank() {
    return to;
  }

  @Override
  public void send(long[] values) {
    queue.add(values.clone());
  }

  @Override
  public long[] recv() {
    long[] head = queue.poll();
    if (head != null) {
      received++;
      return head;
    }
    String where = name + " recv #" + received + " from rank " + from;
    board.enter(to, where);
    boolean interrupted = false;
    try {
      long deadline = System.nanoTime() + timeoutNanos;
      while (true) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          CollectiveTimeoutException failure = new CollectiveTimeoutException(
              "pipe timeout on " + name + ": rank " + to + " waited " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
                  + " ms for message #" + received + "; missing rank(s) " + from
                  + " | where every rank waits: " + board.describe());
          board.timedOut(to, where); // before this thread leaves the board (finally)
          throw failure;
        }
        try {
          head = queue.poll(left, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
          continue;
        }
        if (head != null) {
          received++;
          return head;
        }
      }
    } finally {
      board.exit();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public long[] poll() {
    long[] head = queue.poll();
    if (head != null) {
      received++;
    }
    return head;
  }

  @Override
  public String toString() {
    return name;
  }
}
