package dev.hicachesync.controller;

import dev.hicachesync.testing.LincheckRuns;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The ack-queue check bites: an "optimised" leading count that the completing threads advance themselves
 * ({@code while (done[lead]) lead++}, unsynchronized) must be rejected. The race: ack 1 completes and
 * finds ack 0 not done; ack 0 completes concurrently and advances the count to 1 but reads ack 1's flag
 * before it was set; the count stays at 1 with both acks done — S1 would contribute a stale count forever
 * (an ack never consumed: {@code AcksConsumed}).
 */
@Tag("lincheck")
public class CachedLeadingCountLincheckTest extends AbstractAckQueueLincheckTest {
  public CachedLeadingCountLincheckTest() {
    super(new CachedCount());
  }

  @Test
  void modelCheckingRejects() {
    LincheckRuns.assertRejected(() -> LincheckRuns.modelCheckingBroken(3, 2, AckQueueSpec.class).check(getClass()), null);
  }

  /** The buggy component. */
  static final class CachedCount implements Acks {
    private final boolean[] done = new boolean[ACKS];
    private int lead;
    private int popped;

    @Override
    public void complete(int i) {
      done[i] = true;
      while (lead < ACKS && done[lead]) {
        lead++; // BUG: a check-then-act that races with the other completers
      }
    }

    @Override
    public int leadingDone() {
      return lead - popped;
    }

    @Override
    public List<Long> popLeading() {
      List<Long> ids = new ArrayList<>();
      while (popped < lead) {
        ids.add((long) popped++);
      }
      return ids;
    }
  }
}
