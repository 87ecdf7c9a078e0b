package dev.hicachesync.tier;

import dev.hicachesync.testing.LincheckRuns;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@link AbstractPageAllocatorLincheckTest} on the real {@link PageAllocator} of 4 pages, against {@link LowestFreePagesSpec}. */
@Tag("lincheck")
public class PageAllocatorPairLincheckTest extends AbstractPageAllocatorLincheckTest {
  public PageAllocatorPairLincheckTest() {
    super(real(4));
  }

  @Test
  void modelCheckingTest() {
    LincheckRuns.modelChecking(2, 3, LowestFreePagesSpec.class).check(getClass());
  }

  @Test
  void stressTest() {
    LincheckRuns.stress(2, 3, LowestFreePagesSpec.class).check(getClass());
  }
}
