package dev.hicachesync.tier;

import dev.hicachesync.testing.LincheckRuns;
import java.util.BitSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The allocator check bites: {@link PageAllocator}'s algorithm without its monitor must be rejected. The
 * race: two threads both find page 0 lowest-free and both return it — two owners of one slot, what
 * INV-7 ({@code HostSlotSafety}) forbids — or a lost {@code freeCount} update.
 */
@Tag("lincheck")
public class UnsyncedPageAllocatorLincheckTest extends AbstractPageAllocatorLincheckTest {
  public UnsyncedPageAllocatorLincheckTest() {
    super(new UnsyncedPool(4));
  }

  @Test
  void modelCheckingRejects() {
    LincheckRuns.assertRejected(() -> LincheckRuns.modelCheckingBroken(2, 3, LowestFreePagesSpec.class).check(getClass()), null);
  }

  /** Lowest-first free list, no synchronization (the bug). */
  static final class UnsyncedPool implements Pool {
    private final int capacity;
    private final BitSet free;
    private int freeCount;

    UnsyncedPool(int capacity) {
      this.capacity = capacity;
      this.free = new BitSet(capacity);
      this.free.set(0, capacity);
      this.freeCount = capacity;
    }

    @Override
    public int[] allocate(int n) {
      if (n > freeCount) {
        return null;
      }
      int[] pages = new int[n];
      int p = -1;
      for (int i = 0; i < n; i++) {
        p = free.nextSetBit(p + 1);
        pages[i] = p;
        free.clear(p);
      }
      freeCount -= n;
      return pages;
    }

    @Override
    public void free(int[] pages) {
      BitSet seen = new BitSet();
      for (int p : pages) {
        if (p < 0 || p >= capacity || free.get(p) || seen.get(p)) {
          throw new IllegalStateException("bad free of page " + p);
        }
        seen.set(p);
      }
      free.or(seen);
      freeCount += pages.length;
    }

    @Override
    public int freeCount() {
      return freeCount;
    }

    @Override
    public boolean isAllocated(int page) {
      return !free.get(page);
    }
  }
}
