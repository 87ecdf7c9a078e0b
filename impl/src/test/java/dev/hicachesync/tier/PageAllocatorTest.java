package dev.hicachesync.tier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class PageAllocatorTest {

  @Test
  void allocatesLowestFreePagesAllOrNothing() {
    PageAllocator a = new PageAllocator(8);
    assertArrayEquals(new int[] {0, 1, 2}, a.allocate(3));
    assertArrayEquals(new int[] {3, 4}, a.allocate(2));
    assertEquals(3, a.freeCount());
    assertNull(a.allocate(4), "shortage allocates nothing");
    assertEquals(3, a.freeCount());
    a.free(new int[] {1, 3});
    assertArrayEquals(new int[] {1, 3, 5}, a.allocate(3));
    assertTrue(a.isAllocated(5));
    assertFalse(a.isAllocated(6));
    assertArrayEquals(new int[0], a.allocate(0));
    assertEquals(8, a.capacity());
  }

  @Test
  void doubleFreeAndForeignPagesAreRejectedWithoutFreeingAnything() {
    PageAllocator a = new PageAllocator(4);
    int[] pages = a.allocate(2);
    a.free(new int[] {pages[0]});
    assertThrows(IllegalStateException.class, () -> a.free(new int[] {pages[1], pages[0]}));
    assertTrue(a.isAllocated(pages[1]), "all-or-nothing: page 1 still allocated");
    assertThrows(IllegalStateException.class, () -> a.free(new int[] {pages[1], pages[1]}));
    assertThrows(IllegalStateException.class, () -> a.free(new int[] {4}));
    assertThrows(IllegalStateException.class, () -> a.free(new int[] {-1}));
    assertEquals(3, a.freeCount());
  }

  @Test
  void sameFreeSetGivesSamePagesWhateverTheFreeOrder() {
    // INV-6: two ranks freeing the same pages in a different order within a step allocate the same next.
    PageAllocator r0 = new PageAllocator(64);
    PageAllocator r1 = new PageAllocator(64);
    Random rnd = new Random(7);
    for (int step = 0; step < 500; step++) {
      int n = 1 + rnd.nextInt(6);
      int[] a = r0.allocate(n);
      int[] b = r1.allocate(n);
      assertArrayEquals(a, b, "step " + step);
      if (a != null && rnd.nextBoolean()) {
        int[] reversed = new int[b.length];
        for (int i = 0; i < b.length; i++) {
          reversed[i] = b[b.length - 1 - i];
        }
        r0.free(a);
        r1.free(reversed);
      }
      assertEquals(r0.freeCount(), r1.freeCount());
    }
  }
}
