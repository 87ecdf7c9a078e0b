package dev.hicachesync.workload;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Where tests find traces: the hand-written slice in resources, the Mooncake traces beside the repo. */
final class Traces {

  /** The hand-written 12-request slice that ships with the tests (one blank line inside). */
  static final String TINY = "/workload/tiny_trace.jsonl";

  private Traces() {}

  /** The requests of a trace in test resources. */
  static List<MooncakeRequest> resource(String name) {
    List<MooncakeRequest> out = new ArrayList<>();
    try (MooncakeTrace t = MooncakeTrace.open(
        new InputStreamReader(Traces.class.getResourceAsStream(name), StandardCharsets.UTF_8), name)) {
      t.forEachRemaining(out::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /**
   * {@code ../shared/workloads/mooncake/<file>} relative to the repository root: system property
   * {@code hicache.root} if set, else the nearest ancestor of the working directory holding the
   * {@code hicache-sync} launcher. The path may not exist: callers {@code assumeTrue} it does.
   */
  static Path mooncake(String file) {
    String prop = System.getProperty("hicache.root");
    Path root = prop != null ? Path.of(prop) : null;
    for (Path p = Path.of("").toAbsolutePath(); root == null && p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("hicache-sync"))) {
        root = p;
      }
    }
    Path base = root != null ? root : Path.of("").toAbsolutePath();
    return base.resolve("../shared/workloads/mooncake").resolve(file).normalize();
  }
}
