package dev.hicachesync.storage;

import dev.hicachesync.testing.LincheckRuns;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@link AbstractStorageBackendLincheckTest} on {@link MemoryStorageBackend}, against {@link MapStorageSpec}. */
@Tag("lincheck")
public class MemoryStorageBackendLincheckTest extends AbstractStorageBackendLincheckTest {
  public MemoryStorageBackendLincheckTest() {
    super(new MemoryStorageBackend());
  }

  @Test
  void modelCheckingTest() {
    LincheckRuns.modelChecking(2, 3, MapStorageSpec.class).check(getClass());
  }

  @Test
  void stressTest() {
    LincheckRuns.stress(2, 3, MapStorageSpec.class).check(getClass());
  }
}
