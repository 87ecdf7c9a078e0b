package dev.hicachesync.modelcheck.validate;

import dev.hicachesync.modelcheck.TestSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * The specification directory the trace tests run against: {@code spec/} when it holds the protocol spec
 * ({@code HiCacheSync.tla}); otherwise the protocol modules from the directory named by the system property
 * {@code hicache.spec.dir} (for a branch that does not have them yet) together with this branch's trace
 * spec, in {@code modelcheck/target/trace-spec}. Tests are reported skipped when neither has it.
 */
public final class TraceSpecDir {

  private TraceSpecDir() {}

  public static Path get() throws IOException {
    Path spec = TestSpecs.root().resolve("spec");
    if (Files.isRegularFile(spec.resolve("HiCacheSync.tla"))) {
      return spec;
    }
    String other = System.getProperty("hicache.spec.dir", "");
    Assumptions.assumeTrue(!other.isEmpty() && Files.isRegularFile(Path.of(other, "HiCacheSync.tla")),
        "spec/HiCacheSync.tla is not on this branch and -Dhicache.spec.dir is not set");
    Path dir = TestSpecs.root().resolve("modelcheck/target/trace-spec");
    Files.createDirectories(dir);
    copy(Path.of(other), dir);
    copy(spec, dir);
    return dir;
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }
}
