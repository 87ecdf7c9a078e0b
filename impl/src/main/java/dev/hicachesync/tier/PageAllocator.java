package dev.hicachesync.tier;

import java.util.BitSet;

/**
 * A free list of page indices {@code [0, capacity)} that always hands out the lowest free pages.
 *
 * <p>Why lowest-first: the result depends only on the set of free pages, not on the order of earlier frees,
 * so ranks whose frees happen in a different order within one synced step still allocate the same pages
 * (INV-6). All methods are {@code synchronized}, so any thread may call them; the protocol allocates and
 * frees on the scheduler thread only, at synced points, which is what makes allocation deterministic.
 * Lincheck checks it against {@code LowestFreePagesSpec}; no jcstress test is needed, since every mutable
 * field is read and written under the monitor only ({@code capacity} is final).
 */
public final class PageAllocator {
  private final int capacity;
  /** Bit i set = page i free. Guarded by this. */
  private final BitSet free;
  private int freeCount;

  /** Creates an allocator with every page of {@code [0, capacity)} free. */
  public PageAllocator(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must be >= 0, got " + capacity);
    }
    this.capacity = capacity;
    this.free = new BitSet(capacity);
    this.free.set(0, capacity);
    this.freeCount = capacity;
  }

  /** Returns the number of pages managed. */
  public int capacity() {
    return capacity;
  }

  /** Returns the number of free pages. */
  public synchronized int freeCount() {
    return freeCount;
  }

  /** Returns whether {@code page} is currently allocated. */
  public synchronized boolean isAllocated(int page) {
    checkPage(page);
    return !free.get(page);
  }

  /**
   * Returns the {@code n} lowest free pages in ascending order, all marked allocated, or {@code null} (and
   * nothing allocated) if fewer than {@code n} are free.
   */
  public synchronized int[] allocate(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("cannot allocate " + n + " pages");
    }
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

  /**
   * Returns {@code pages} to the free list; all-or-nothing.
   *
   * @throws IllegalStateException if a page is outside the pool, already free, or listed twice
   */
  public synchronized void free(int[] pages) {
    // Marked free one by one and taken back on a bad page. Why not a set of the pages seen, then one OR: that
    // set was a new bit set as large as the pool and an OR over all of its words for every free, whatever
    // the number of pages, and the simulator frees host pages at every eviction.
    for (int i = 0; i < pages.length; i++) {
      int p = pages[i];
      if (p < 0 || p >= capacity) {
        unfree(pages, i);
        throw new IllegalStateException("page " + p + " does not belong to this pool of " + capacity + " pages");
      }
      if (free.get(p)) { // free before this call, or listed earlier in it
        unfree(pages, i);
        throw new IllegalStateException("double free of page " + p);
      }
      free.set(p);
    }
    freeCount += pages.length;
  }

  /** Takes back the pages {@code pages[0, n)} this call marked free (distinct, each allocated before it). */
  private void unfree(int[] pages, int n) {
    for (int i = 0; i < n; i++) {
      free.clear(pages[i]);
    }
  }

  private void checkPage(int page) {
    if (page < 0 || page >= capacity) {
      throw new IllegalArgumentException("page " + page + " is outside [0, " + capacity + ")");
    }
  }

  @Override
  public synchronized String toString() {
    return "PageAllocator[" + freeCount + "/" + capacity + " free]";
  }
}
