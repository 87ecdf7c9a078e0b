package dev.hicachesync.modelcheck.doc;

import dev.hicachesync.modelcheck.TestSpecs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The user docs the docs tests read: README.md, ARCHITECTURE.md and every markdown file under docs/. */
final class Docs {

  private Docs() {}

  static Path root() {
    return TestSpecs.root();
  }

  /** Every doc, as paths relative to the repository root, in a stable order. */
  static List<Path> files() {
    Path root = root();
    List<Path> files = new ArrayList<>(List.of(Path.of("README.md"), Path.of("ARCHITECTURE.md")));
    try (Stream<Path> walk = Files.walk(root.resolve("docs"))) {
      walk.filter(p -> p.toString().endsWith(".md")).map(root::relativize).sorted().forEach(files::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (Path f : files) {
      if (!Files.isRegularFile(root.resolve(f))) {
        throw new AssertionError("missing doc: " + f);
      }
    }
    return files;
  }

  static List<String> lines(Path relative) {
    try {
      return Files.readAllLines(root().resolve(relative), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The lines with fenced code blocks blanked (kept as empty lines, so line numbers stay right): links and
   * figures inside code are examples, not claims.
   */
  static List<String> prose(List<String> lines) {
    List<String> out = new ArrayList<>(lines.size());
    boolean fenced = false;
    for (String line : lines) {
      if (line.trim().startsWith("```")) {
        fenced = !fenced;
        out.add("");
      } else {
        out.add(fenced ? "" : line);
      }
    }
    return out;
  }
}
