package dev.hicachesync.storage;

import dev.hicachesync.testing.LincheckRuns;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link AbstractStorageBackendLincheckTest} on {@link FileStorageBackend} (atomic renames), against {@link
 * MapStorageSpec}. Stress only: the model checker would have to explore the file system's own threads and
 * natives, which it does not instrument. Each instance gets a fresh folder under {@code target/}.
 */
@Tag("lincheck")
public class FileStorageBackendLincheckTest extends AbstractStorageBackendLincheckTest {
  private static final Path ROOT = Path.of("target", "lincheck-file-store");
  private static final AtomicInteger INSTANCES = new AtomicInteger();

  public FileStorageBackendLincheckTest() {
    super(new FileStorageBackend(fresh()));
  }

  private static Path fresh() {
    try {
      Files.createDirectories(ROOT);
      return Files.createTempDirectory(ROOT, "store" + INSTANCES.incrementAndGet() + "-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void stressTest() {
    LincheckRuns.stress(2, 3, MapStorageSpec.class).check(getClass());
  }
}
