package dev.hicachesync.cluster;

import dev.hicachesync.collective.CollectivePeerLostException;
import dev.hicachesync.collective.CollectiveTimeoutException;
import dev.hicachesync.collective.PipeChannel;
import java.util.ArrayDeque;

/**
 * One end of a pipeline channel between two rank processes (PP stage k's rank to stage k+1's): sends never
 * block; a receive blocks up to the timeout and fails by name if the sender left or stayed silent. FIFO,
 * because JGroups delivers one sender's unicasts in order. One sending and one receiving thread.
 */
final class RemotePipe implements PipeChannel {
  private final ClusterNode node;
  private final int from;
  private final int to;
  private long sent; // sender thread only

  RemotePipe(ClusterNode node, int from, int to) {
    this.node = node;
    this.from = from;
    this.to = to;
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
    requireEnd(from, "send on");
    node.sendPipe(from, to, sent++, values.clone());
  }

  @Override
  public long[] recv() {
    requireEnd(to, "receive from");
    long deadline = System.nanoTime() + node.timeout().toNanos();
    node.lock().lock();
    try {
      ArrayDeque<long[]> inbox = node.mail().inboxLocked(from, to);
      while (inbox.isEmpty()) {
        if (node.lostLocked().contains(from)) {
          throw new CollectivePeerLostException("rank " + from + " left the world (crash, kill or partition): rank "
              + to + " was waiting to receive on pipe " + from + "->" + to);
        }
        if (!node.awaitChangeLocked(deadline)) {
          throw new CollectiveTimeoutException("pipe timeout after " + node.timeout().toMillis() + " ms: rank " + to
              + " waits to receive on pipe " + from + "->" + to + ", rank " + from + " sent nothing");
        }
      }
      return inbox.removeFirst();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CollectiveTimeoutException("interrupted: rank " + to + " waiting on pipe " + from + "->" + to);
    } finally {
      node.lock().unlock();
    }
  }

  @Override
  public long[] poll() {
    requireEnd(to, "poll");
    node.lock().lock();
    try {
      return node.mail().inboxLocked(from, to).pollFirst();
    } finally {
      node.lock().unlock();
    }
  }

  private void requireEnd(int rank, String what) {
    if (node.rank() != rank) {
      throw new IllegalStateException("rank " + node.rank() + " cannot " + what + " pipe " + from + "->" + to);
    }
  }
}
