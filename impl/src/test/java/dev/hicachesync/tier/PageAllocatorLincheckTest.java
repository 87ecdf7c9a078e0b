package dev.hicachesync.tier;

import java.util.Arrays;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link PageAllocator} against {@link LowestFreePagesSpec}: its methods are documented
 * as safe from any thread. Results
 * are strings so that arrays and exceptions compare by value. Sizes: {@code -Dlincheck.iterations},
 * {@code -Dlincheck.invocations} (fast defaults). Public: Lincheck instantiates it reflectively.
 */
@Tag("lincheck")
@Param(name = "n", gen = IntGen.class, conf = "0:3")
@Param(name = "page", gen = IntGen.class, conf = "-1:4")
public class PageAllocatorLincheckTest {
  private static final int ITERATIONS = Integer.getInteger("lincheck.iterations", 10);
  private static final int INVOCATIONS = Integer.getInteger("lincheck.invocations", 200);

  private final PageAllocator allocator = new PageAllocator(4);

  @Operation(params = {"n"})
  public String allocate(int n) {
    int[] pages = allocator.allocate(n);
    return pages == null ? "null" : Arrays.toString(pages);
  }

  @Operation(params = {"page"})
  public String free(int page) {
    try {
      allocator.free(new int[] {page});
      return "ok";
    } catch (IllegalStateException e) {
      return "rejected";
    }
  }

  @Operation
  public int freeCount() {
    return allocator.freeCount();
  }

  @Test
  void modelCheckingTest() {
    new ModelCheckingOptions().iterations(ITERATIONS).invocationsPerIteration(INVOCATIONS)
        .sequentialSpecification(LowestFreePagesSpec.class).check(getClass());
  }

  @Test
  void stressTest() {
    new StressOptions().iterations(ITERATIONS).invocationsPerIteration(INVOCATIONS)
        .sequentialSpecification(LowestFreePagesSpec.class).check(getClass());
  }
}
