package dev.hicachesync.controller;

import dev.hicachesync.testing.LincheckRuns;
import java.util.AbstractQueue;
import java.util.Iterator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The control-queue check bites: a plain array queue (what an {@code ArrayDeque} would be) shared by the
 * background threads and the scheduler must be rejected. The race: two producers read the same tail and
 * one item is lost — S3 then counts an item that never arrives on this rank, or releases a host slot never
 * ({@code HostSlotSafety}: a leak).
 */
@Tag("lincheck")
public class UnsyncedControlQueueLincheckTest extends AbstractControlQueueLincheckTest {
  public UnsyncedControlQueueLincheckTest() {
    super(new PlainArrayQueue());
  }

  @Test
  void modelCheckingRejects() {
    LincheckRuns.assertRejected(() -> LincheckRuns.modelCheckingBroken(3, 2).check(getClass()), null);
  }

  /** A FIFO over an array with plain head/tail indices (the bug: no synchronization). */
  static final class PlainArrayQueue extends AbstractQueue<Long> {
    private final Long[] items = new Long[64];
    private int head;
    private int tail;

    @Override
    public boolean offer(Long x) {
      int t = tail;
      items[t] = x;
      tail = t + 1;
      return true;
    }

    @Override
    public Long poll() {
      if (head == tail) {
        return null;
      }
      return items[head++];
    }

    @Override
    public Long peek() {
      return head == tail ? null : items[head];
    }

    @Override
    public int size() {
      return tail - head;
    }

    @Override
    public Iterator<Long> iterator() {
      throw new UnsupportedOperationException();
    }
  }
}
