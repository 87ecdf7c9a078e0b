package dev.hicachesync.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code --storage file} run without {@code --storage-dir} wrote its pages into a
 * {@code hicache-sim-N} folder of the temporary directory and left it there. A child JVM with its own
 * temporary directory runs one such simulation; afterwards that directory must be empty.
 */
class TempStoreCleanupTest {
  @TempDir Path tmp;

  @Test
  void theTemporaryStoreIsRemovedWhenTheRunEnds() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child = new ProcessBuilder(java, "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"),
        TempStoreProcess.class.getName()).redirectErrorStream(true).start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(120, TimeUnit.SECONDS), "child ended");
    assertTrue(out.startsWith("ok ") && !out.startsWith("ok 0"), "the run wrote pages: " + out);
    try (Stream<Path> s = Files.list(tmp)) {
      assertEquals(List.of(), s.toList(), "nothing left in the temporary directory");
    }
  }
}
