package dev.hicachesync.tier;

import dev.hicachesync.testing.LincheckRuns;
import java.util.Arrays;
import java.util.BitSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Broken twin (a) of the allocator's Lincheck test: an allocator that hands out the <em>highest</em> free pages. It is
 * perfectly thread-safe (one monitor, like {@link PageAllocator}), so a check that compares the allocator
 * with itself run sequentially accepts it; against {@link LowestFreePagesSpec} it must be rejected. Why a
 * model is needed: highest-first depends on the set of free pages alone, as lowest-first does, so every
 * rank still allocates alike and no simulation invariant notices the switch; only a specification that
 * states the rule {@link PageAllocator} documents (lowest first) pins it down.
 */
@Tag("lincheck")
public class HighestFreePagesAllocatorLincheckTest extends AbstractPageAllocatorLincheckTest {
  public HighestFreePagesAllocatorLincheckTest() {
    super(new HighestFirst(LowestFreePagesSpec.CAPACITY));
  }

  @Test
  void modelCheckingRejects() {
    LincheckRuns.assertRejected(
        () -> LincheckRuns.modelCheckingBroken(2, 3, LowestFreePagesSpec.class).check(getClass()), null);
  }

  /** {@link PageAllocator}'s structure and locking with the mutated search direction. */
  static final class HighestFirst implements Pool {
    private final int capacity;
    private final BitSet free;

    HighestFirst(int capacity) {
      this.capacity = capacity;
      this.free = new BitSet(capacity);
      this.free.set(0, capacity);
    }

    @Override
    public synchronized int[] allocate(int n) {
      if (n > free.cardinality()) {
        return null;
      }
      int[] pages = new int[n];
      int p = capacity;
      for (int i = 0; i < n; i++) {
        p = free.previousSetBit(p - 1); // BUG: highest free first
        pages[i] = p;
        free.clear(p);
      }
      Arrays.sort(pages);
      return pages;
    }

    @Override
    public synchronized void free(int[] pages) {
      BitSet seen = new BitSet();
      for (int p : pages) {
        if (p < 0 || p >= capacity || free.get(p) || seen.get(p)) {
          throw new IllegalStateException("bad free of page " + p);
        }
        seen.set(p);
      }
      free.or(seen);
    }

    @Override
    public synchronized int freeCount() {
      return free.cardinality();
    }

    @Override
    public synchronized boolean isAllocated(int page) {
      return !free.get(page);
    }
  }
}
