package dev.hicachesync.controller;

import dev.hicachesync.testing.LincheckRuns;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Broken twin (b) of the ack queues' Lincheck tests: {@link CopyAckQueue#leadingDone} counting every done ack instead of the
 * leading run. With acks 0 and 2 done and ack 1 pending it answers 2 where S1/S2 may pop only 1; in the
 * controller {@code popWriteAcks}' {@code await()} then blocks on ack 1 and hides the wrong count, which is
 * why the whole impl suite used to pass with this mutant. {@link AckQueueSpec} rejects it (no
 * interleaving needed: the sequential part already disagrees); {@link CopyAckQueueTest} catches it
 * directly on the production class.
 */
@Tag("lincheck")
public class EveryDoneAckCountLincheckTest extends AbstractAckQueueLincheckTest {
  public EveryDoneAckCountLincheckTest() {
    super(new EveryDoneAcks());
  }

  @Test
  void modelCheckingRejects() {
    LincheckRuns.assertRejected(
        () -> LincheckRuns.modelCheckingBroken(3, 2, AckQueueSpec.class).check(getClass()), null);
  }

  /** The production queue's structure with the mutated count: every done ack, wherever it stands. */
  static final class EveryDoneAcks implements Acks {
    private final ControllerFixtures.CopyEvent[] events = new ControllerFixtures.CopyEvent[ACKS];
    private int head;

    EveryDoneAcks() {
      for (int i = 0; i < ACKS; i++) {
        events[i] = new ControllerFixtures.CopyEvent();
      }
    }

    @Override
    public void complete(int i) {
      events[i].finish();
    }

    @Override
    public int leadingDone() {
      int n = 0;
      for (int i = head; i < ACKS; i++) {
        n += events[i].isDone() ? 1 : 0; // BUG: no break at the first pending ack
      }
      return n;
    }

    @Override
    public List<Long> popLeading() {
      List<Long> ids = new ArrayList<>();
      for (int n = leadingDone(); n > 0; n--) {
        ids.add((long) head++);
      }
      return ids;
    }
  }
}
