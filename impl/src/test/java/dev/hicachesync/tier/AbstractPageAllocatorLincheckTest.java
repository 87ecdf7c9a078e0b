package dev.hicachesync.tier;

import java.util.Arrays;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;

/**
 * Operation catalogue for page allocators, complementing impl-a's {@link PageAllocatorLincheckTest}
 * (single-page frees): frees of two pages that must be all-or-nothing, {@code isAllocated} against
 * concurrent allocation, and the lowest-first rule that INV-6 ({@code AllocAgreement}) relies on.
 * Subclasses bind it to an implementation with one constructor.
 */
@Param(name = "n", gen = IntGen.class, conf = "1:2")
@Param(name = "page", gen = IntGen.class, conf = "0:3")
public abstract class AbstractPageAllocatorLincheckTest {
  /** The contract under test: {@link PageAllocator}'s public methods. */
  interface Pool {
    int[] allocate(int n);

    void free(int[] pages);

    int freeCount();

    boolean isAllocated(int page);
  }

  private final Pool pool;

  AbstractPageAllocatorLincheckTest(Pool pool) {
    this.pool = pool;
  }

  @Operation(params = {"n"})
  public String allocate(int n) {
    int[] pages = pool.allocate(n);
    return pages == null ? "null" : Arrays.toString(pages);
  }

  /** Frees two pages at once; a double free or a free page in the pair must reject the whole call. */
  @Operation(params = {"page", "page"})
  public String freePair(int a, int b) {
    try {
      pool.free(new int[] {a, b});
      return "ok";
    } catch (IllegalStateException e) {
      return "rejected";
    }
  }

  @Operation(params = {"page"})
  public boolean isAllocated(int page) {
    return pool.isAllocated(page);
  }

  @Operation
  public int freeCount() {
    return pool.freeCount();
  }

  /** Adapts the real {@link PageAllocator}. */
  static Pool real(int capacity) {
    PageAllocator a = new PageAllocator(capacity);
    return new Pool() {
      @Override
      public int[] allocate(int n) {
        return a.allocate(n);
      }

      @Override
      public void free(int[] pages) {
        a.free(pages);
      }

      @Override
      public int freeCount() {
        return a.freeCount();
      }

      @Override
      public boolean isAllocated(int page) {
        return a.isAllocated(page);
      }
    };
  }
}
