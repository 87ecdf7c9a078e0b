package dev.hicachesync.controller;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.LongGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;

/**
 * Operation catalogue for a queue between the controller's threads (revoke, backup-ack and host-release
 * queues: background threads produce, the scheduler consumes at S3). The scheduler's use is the protocol's:
 * read the local size (S3's local value), then pop exactly the agreed count, never more than it saw.
 * Subclasses bind it to a queue with one constructor.
 */
@Param(name = "x", gen = LongGen.class, conf = "1:3")
@Param(name = "n", gen = IntGen.class, conf = "0:2")
public abstract class AbstractControlQueueLincheckTest {
  private final Queue<Long> queue;

  AbstractControlQueueLincheckTest(Queue<Long> queue) {
    this.queue = queue;
  }

  /** A background thread (storage backup done, prefetch revoked, host slots to release) enqueues. */
  @Operation(params = {"x"})
  public void produce(long x) {
    queue.add(x);
  }

  /** S3's local value. Scheduler thread. */
  @Operation(nonParallelGroup = "scheduler")
  public int size() {
    return queue.size();
  }

  /** Pops exactly {@code min(agreed, size)} items, as S3 does with the MIN of every rank's size. */
  @Operation(params = {"n"}, nonParallelGroup = "scheduler")
  public String drainAgreed(int agreed) {
    int m = Math.min(agreed, queue.size());
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < m; i++) {
      out.add(queue.poll()); // null here would mean an item the scheduler counted has vanished
    }
    return out.toString();
  }
}
