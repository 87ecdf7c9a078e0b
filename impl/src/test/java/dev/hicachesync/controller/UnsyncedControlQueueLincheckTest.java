package dev.hicachesync.controller;

import dev.hicachesync.testing.LincheckRuns;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The control-queue check bites: the design {@link ReadyQueue} replaced — background threads append to a
 * plain array queue when their work finishes — must be rejected. The race: two producers read the same
 * tail index and one item is lost; S3 then never pops it (a revoke or host release that never happens:
 * {@code AcksConsumed}, a host-slot leak).
 */
@Tag("lincheck")
public class UnsyncedControlQueueLincheckTest extends AbstractAckQueueLincheckTest {
  public UnsyncedControlQueueLincheckTest() {
    super(new AppendOnCompletion());
  }

  @Test
  void modelCheckingRejects() {
    LincheckRuns.assertRejected(() -> LincheckRuns.modelCheckingBroken(3, 2, AckQueueSpec.class).check(getClass()), null);
  }

  /** Items appended by the completing thread, plain head/tail indices (the bug: no synchronization). */
  static final class AppendOnCompletion implements Acks {
    private final long[] items = new long[64];
    private int head;
    private int tail;

    @Override
    public void complete(int i) {
      int t = tail;
      items[t] = i;
      tail = t + 1;
    }

    @Override
    public int leadingDone() {
      return tail - head;
    }

    @Override
    public List<Long> popLeading() {
      List<Long> out = new ArrayList<>();
      while (head < tail) {
        out.add(items[head++]);
      }
      return out;
    }
  }
}
