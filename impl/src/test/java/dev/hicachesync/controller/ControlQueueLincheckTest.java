package dev.hicachesync.controller;

import dev.hicachesync.testing.LincheckRuns;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link AbstractAckQueueLincheckTest} on the controller's control queues ({@link ReadyQueue}: revoke,
 * backup-ack, host-release): entries are appended in a deterministic order, background threads mark them
 * ready at rank-local times, the scheduler counts the leading ready entries (S3's local value) and pops
 * that many. Linearizable because an entry never becomes unready.
 *
 * <p>Memory model: Lincheck's model checker assumes sequential consistency, so it cannot see a missing
 * {@code volatile}; {@code ReadyQueue.Entry.ready} is {@code volatile} and the deque is under the queue's
 * monitor (see {@link ReadyQueue}'s javadoc for why that needs no jcstress test).
 */
@Tag("lincheck")
public class ControlQueueLincheckTest extends AbstractAckQueueLincheckTest {
  public ControlQueueLincheckTest() {
    super(readyQueue());
  }

  static Acks readyQueue() {
    ReadyQueue<Long> q = new ReadyQueue<>();
    List<ReadyQueue.Entry<Long>> entries = new ArrayList<>();
    for (long i = 0; i < ACKS; i++) {
      entries.add(q.add(i)); // appended at S7 / S3 time, in the same order on every rank
    }
    return new Acks() {
      @Override
      public void complete(int i) {
        entries.get(i).markReady(); // the background work finished
      }

      @Override
      public int leadingDone() {
        return q.leadingReady();
      }

      @Override
      public List<Long> popLeading() {
        int n = q.leadingReady();
        List<Long> out = new ArrayList<>();
        for (int k = 0; k < n; k++) {
          out.add(q.poll());
        }
        return out;
      }
    };
  }

  @Test
  void modelCheckingTest() {
    LincheckRuns.modelChecking(3, 2, AckQueueSpec.class).check(getClass());
  }

  @Test
  void stressTest() {
    LincheckRuns.stress(3, 2, AckQueueSpec.class).check(getClass());
  }
}
