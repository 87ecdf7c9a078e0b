package dev.hicachesync.workload;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where tests find traces: the hand-written slice and the head of a real trace in resources (both
 * committed: a test on them fails if they are missing), and the whole Mooncake traces beside the repo
 * (not committed: only an optional test reads them).
 */
final class Traces {

  /** The hand-written 12-request slice that ships with the tests (one blank line inside). */
  static final String TINY = "/workload/tiny_trace.jsonl";

  /**
   * The first 300 requests of Mooncake's {@code conversation_trace.jsonl} (FAST'25 release, Apache License
   * 2.0), byte for byte: real prefix sharing and arrival times for the replay tests.
   */
  static final String CONVERSATION_HEAD = "/workload/conversation_head300.jsonl";

  private Traces() {}

  /** The requests of a trace in test resources; a missing resource fails the test. */
  static List<MooncakeRequest> resource(String name) {
    return resource(name, Integer.MAX_VALUE);
  }

  /** The first {@code limit} requests of a trace in test resources; a missing resource fails the test. */
  static List<MooncakeRequest> resource(String name, int limit) {
    List<MooncakeRequest> out = new ArrayList<>();
    InputStream in = Traces.class.getResourceAsStream(name);
    if (in == null) {
      throw new AssertionError("no test resource " + name + " (a committed fixture)");
    }
    try (MooncakeTrace t = MooncakeTrace.open(new InputStreamReader(in, StandardCharsets.UTF_8), name)) {
      while (out.size() < limit && t.hasNext()) {
        out.add(t.next());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /**
   * {@code ../shared/workloads/mooncake/<file>} relative to the repository root: system property
   * {@code hicache.root} if set, else the nearest ancestor of the working directory holding the
   * {@code hicache-sync} launcher. The path may not exist (the traces are not committed): only the
   * optional tests on a whole trace read it, and {@code assumeTrue} it does.
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
