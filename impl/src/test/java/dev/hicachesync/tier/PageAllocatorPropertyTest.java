package dev.hicachesync.tier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.hicachesync.testing.QtRuns;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link PageAllocator} against a sorted set of free pages: random allocations and frees, valid and not
 * (pages listed twice, pages already free, pages outside the pool, each anywhere in the list), give the same
 * pages, the same refusals with the same message, and leave the same free pages (a refused free frees none).
 */
class PageAllocatorPropertyTest {

  @Test
  void behavesAsASortedSetOfFreePages() {
    QtRuns.qt().forAll(longs().all(), integers().between(1, 120)).checkAssert((seed, capacity) -> {
      SplittableRandom r = new SplittableRandom(seed);
      PageAllocator a = new PageAllocator(capacity);
      TreeSet<Integer> model = new TreeSet<>();
      for (int p = 0; p < capacity; p++) {
        model.add(p);
      }
      List<Integer> held = new ArrayList<>();
      for (int step = 0; step < 150; step++) {
        String at = "seed " + seed + ", capacity " + capacity + ", step " + step;
        if (r.nextBoolean()) {
          int n = r.nextInt(Math.max(1, capacity / 4) + 1);
          int[] got = a.allocate(n);
          if (n > model.size()) {
            assertEquals(null, got, at);
          } else {
            int[] want = new int[n];
            for (int i = 0; i < n; i++) {
              want[i] = model.pollFirst();
              held.add(want[i]);
            }
            assertArrayEquals(want, got, at);
          }
        } else {
          int n = Math.min(held.size(), r.nextInt(6));
          List<Integer> list = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            list.add(held.get(r.nextInt(held.size())));
          }
          list = new ArrayList<>(new java.util.LinkedHashSet<>(list)); // distinct pages that are held
          if (r.nextInt(3) == 0) { // spoil it: a duplicate, a free page or a foreign one, anywhere
            int bad = switch (r.nextInt(3)) {
              case 0 -> list.isEmpty() ? -1 : list.get(r.nextInt(list.size()));
              case 1 -> model.isEmpty() ? capacity : model.first();
              default -> r.nextBoolean() ? -1 - r.nextInt(3) : capacity + r.nextInt(3);
            };
            list.add(r.nextInt(list.size() + 1), bad);
          }
          int[] pages = list.stream().mapToInt(Integer::intValue).toArray();
          String want = expectedRefusal(pages, model, capacity);
          if (want == null) {
            a.free(pages);
            for (int p : pages) {
              model.add(p);
              held.remove(Integer.valueOf(p));
            }
          } else {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> a.free(pages), at);
            assertEquals(want, e.getMessage(), at);
          }
        }
        assertEquals(model.size(), a.freeCount(), at);
        for (int p = 0; p < capacity; p++) {
          assertEquals(!model.contains(p), a.isAllocated(p), at + ", page " + p);
        }
      }
    });
  }

  /** The refusal of freeing {@code pages}: the first bad page in list order, or null for none. */
  private static String expectedRefusal(int[] pages, TreeSet<Integer> free, int capacity) {
    TreeSet<Integer> seen = new TreeSet<>();
    for (int p : pages) {
      if (p < 0 || p >= capacity) {
        return "page " + p + " does not belong to this pool of " + capacity + " pages";
      }
      if (free.contains(p) || !seen.add(p)) {
        return "double free of page " + p;
      }
    }
    return null;
  }
}
