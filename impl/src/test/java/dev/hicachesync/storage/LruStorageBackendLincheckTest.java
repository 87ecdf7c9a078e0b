package dev.hicachesync.storage;

import dev.hicachesync.testing.LincheckRuns;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link AbstractStorageBackendLincheckTest} on {@link LruStorageBackend} of {@link LruStorageSpec#CAPACITY}
 * objects over a {@link MemoryStorageBackend}, against {@link LruStorageSpec}: the recency order and the
 * evictions must be those of some sequential order of the calls.
 */
@Tag("lincheck")
public class LruStorageBackendLincheckTest extends AbstractStorageBackendLincheckTest {
  public LruStorageBackendLincheckTest() {
    super(new LruStorageBackend(new MemoryStorageBackend(), LruStorageSpec.CAPACITY));
  }

  @Test
  void modelCheckingTest() {
    LincheckRuns.modelChecking(2, 3, LruStorageSpec.class).check(getClass());
  }

  @Test
  void stressTest() {
    LincheckRuns.stress(2, 3, LruStorageSpec.class).check(getClass());
  }
}
