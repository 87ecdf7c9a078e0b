package dev.hicachesync.tier;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The sequential specification of a page allocator of 4 pages, written from the rule INV-6 ({@code
 * AllocAgreement}) relies on and not from {@link PageAllocator}: a sorted set of free pages; {@code
 * allocate(n)} takes the {@code n} smallest (or nothing, {@code "null"}, when fewer are free); a free of a
 * page outside the pool, of a free page, or of the same page twice rejects the whole call. Operations mirror
 * {@link PageAllocatorLincheckTest} and {@link AbstractPageAllocatorLincheckTest} (public, no-argument
 * constructor: Lincheck builds it reflectively).
 */
public class LowestFreePagesSpec {
  static final int CAPACITY = 4;
  private final TreeSet<Integer> free = new TreeSet<>(List.of(0, 1, 2, 3));

  public String allocate(int n) {
    if (n > free.size()) {
      return "null";
    }
    List<Integer> taken = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      taken.add(free.pollFirst());
    }
    return taken.toString();
  }

  public String free(int page) {
    if (page < 0 || page >= CAPACITY || free.contains(page)) {
      return "rejected";
    }
    free.add(page);
    return "ok";
  }

  public String freePair(int a, int b) {
    if (a == b || a < 0 || a >= CAPACITY || b < 0 || b >= CAPACITY || free.contains(a) || free.contains(b)) {
      return "rejected";
    }
    free.add(a);
    free.add(b);
    return "ok";
  }

  public boolean isAllocated(int page) {
    return !free.contains(page);
  }

  public int freeCount() {
    return free.size();
  }
}
