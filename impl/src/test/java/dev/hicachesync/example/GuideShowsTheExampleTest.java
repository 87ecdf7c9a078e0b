package dev.hicachesync.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The guide's scheduler step is the worked example's, compiled and run: the {@code java} block that follows
 * the marker comment in {@code docs/tutorial/embed-a-rank.md} must equal the region of {@code
 * ServingLoopExample.java} between {@code // guide:begin} and {@code // guide:end}, indentation removed. On a
 * difference the message gives the region to paste.
 */
class GuideShowsTheExampleTest {
  static final Path GUIDE = Path.of("..", "docs", "tutorial", "embed-a-rank.md");
  static final Path EXAMPLE = Path.of("src", "test", "java", "dev", "hicachesync", "example", "ServingLoopExample.java");
  static final String MARKER = "<!-- guide:example ServingLoopExample.java";

  @Test
  void theGuidesStepIsTheExamplesSource() throws IOException {
    String region = region(Files.readAllLines(EXAMPLE));
    String block = block(Files.readAllLines(GUIDE));
    assertTrue(region.contains("cache.awaitLoaded(c)"), "the region holds the admission: " + region);
    assertEquals(region, block, "the guide's block differs from the example; paste this region into "
        + GUIDE + ":\n" + region);
  }

  /** The lines between the markers, less their common indentation. */
  static String region(List<String> lines) {
    int from = indexOf(lines, "// guide:begin") + 1;
    int to = indexOf(lines, "// guide:end");
    List<String> r = lines.subList(from, to);
    int indent = r.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length()).min()
        .orElse(0);
    StringBuilder out = new StringBuilder();
    for (String l : r) {
      out.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
    }
    return out.toString();
  }

  /** The {@code java} block after the marker comment. */
  static String block(List<String> lines) {
    int at = indexOf(lines, MARKER);
    assertEquals("```java", lines.get(at + 1).strip(), "the marker is followed by a java block");
    StringBuilder out = new StringBuilder();
    for (int i = at + 2; !lines.get(i).strip().equals("```"); i++) {
      out.append(lines.get(i)).append('\n');
    }
    return out.toString();
  }

  private static int indexOf(List<String> lines, String start) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).strip().startsWith(start)) {
        return i;
      }
    }
    throw new IllegalStateException("no line starting with " + start);
  }
}
