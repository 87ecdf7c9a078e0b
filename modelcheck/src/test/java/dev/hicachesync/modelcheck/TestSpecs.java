package dev.hicachesync.modelcheck;

import java.nio.file.Path;

/** Where the tests' hand-written TLA+ specs are, and a workspace that uses them. */
public final class TestSpecs {

  private TestSpecs() {}

  /** The repository root (surefire sets {@code hicache.root}). */
  public static Path root() {
    return Path.of(System.getProperty(Workspace.ROOT_PROPERTY, "..")).toAbsolutePath().normalize();
  }

  /** {@code modelcheck/src/test/resources/tla}: the specs, their cfgs, a test catalogue and template. */
  public static Path dir() {
    return root().resolve("modelcheck/src/test/resources/tla");
  }

  /** A workspace whose models and spec are the test specs, running under {@code target/tlc-test}. */
  public static Workspace workspace() {
    return new Workspace(dir(), dir(), root().resolve("modelcheck/target/tlc-test"));
  }
}
