package dev.hicachesync.modelcheck.doc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every relative link and image of README.md, ARCHITECTURE.md and docs/ names a file of this repository,
 * and every {@code #anchor} into a markdown file names one of its headings (GitHub's heading slugs).
 */
class DocLinksTest {

  private static final Pattern LINK = Pattern.compile("!?\\[([^\\]]*)\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
  private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");
  private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:.*");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

  @Test
  void everyRelativeLinkResolves() {
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (Path doc : Docs.files()) {
      List<String> lines = Docs.prose(Docs.lines(doc));
      for (int i = 0; i < lines.size(); i++) {
        for (String target : links(lines.get(i))) {
          checked++;
          String problem = problem(doc, target);
          if (problem != null) {
            broken.add(doc + ":" + (i + 1) + ": (" + target + ") " + problem);
          }
        }
      }
    }
    assertTrue(checked > 50, "the docs link to each other: only " + checked + " links found");
    assertTrue(broken.isEmpty(), "broken links:\n  " + String.join("\n  ", broken));
  }

  @Test
  void slugsAreGitHubs() {
    assertEquals(List.of("check-ad-hoc-models", "pp--1-spectracehicachepipelinetla", "a", "a-1"),
        slugs(List.of("## `check`: ad-hoc models", "## PP > 1: `spec/TraceHiCachePipeline.tla`", "# A", "## A")));
    assertEquals(List.of("check-a-protocol-change"), links("see [check](check-a-protocol-change) and `[x](y)`"));
  }

  /** The link targets of one line, code spans left out. */
  static List<String> links(String line) {
    Matcher m = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
    List<String> targets = new ArrayList<>();
    while (m.find()) {
      targets.add(m.group(2));
    }
    return targets;
  }

  /** Why a link of {@code doc} does not resolve, or null when it does (or is not relative). */
  static String problem(Path doc, String target) {
    if (SCHEME.matcher(target).matches()) {
      return null;
    }
    int hash = target.indexOf('#');
    String path = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? "" : target.substring(hash + 1);
    Path root = Docs.root();
    Path file = path.isEmpty() ? root.resolve(doc) : root.resolve(doc).getParent().resolve(path).normalize();
    if (!file.startsWith(root)) {
      return "points outside the repository";
    }
    if (!Files.exists(file)) {
      return "no such file";
    }
    if (!anchor.isEmpty()) {
      if (!file.toString().endsWith(".md")) {
        return "anchor into a file that is not markdown";
      }
      Set<String> known = new LinkedHashSet<>(slugs(Docs.prose(Docs.lines(root.relativize(file)))));
      if (!known.contains(anchor)) {
        return "no heading with anchor #" + anchor + " (headings: " + String.join(", ", known) + ")";
      }
    }
    return null;
  }

  /** GitHub's anchors of a file's headings: lower case, punctuation dropped, spaces as '-', repeats numbered. */
  static List<String> slugs(List<String> lines) {
    List<String> slugs = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    for (String line : lines) {
      Matcher m = HEADING.matcher(line);
      if (!m.matches()) {
        continue;
      }
      String text = m.group(1).replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
      String slug = text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
      int n = seen.merge(slug, 1, Integer::sum) - 1;
      slugs.add(n == 0 ? slug : slug + "-" + n);
    }
    return slugs;
  }
}
