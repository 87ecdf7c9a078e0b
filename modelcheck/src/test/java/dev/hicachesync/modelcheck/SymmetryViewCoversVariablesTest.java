package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A rank-symmetry VIEW must show every variable of its module: a variable left out merges states
 * that differ in it, which is unsound (TLC then skips states no permutation relates), not a
 * reduction. The last merge found one such view (two new variables of HiCacheSync missing), so
 * this reads the module's VARIABLE declarations and the view's definition from the sources and
 * compares them.
 */
class SymmetryViewCoversVariablesTest {

  private static final Pattern DECLARATION = Pattern.compile("^VARIABLES?\\s+(.*)$");
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** The variables a module declares (VARIABLE x, VARIABLES a, b spanning lines), in order. */
  static Set<String> declaredVariables(String module) {
    Set<String> names = new LinkedHashSet<>();
    String[] lines = module.split("\n");
    for (int i = 0; i < lines.length; i++) {
      Matcher d = DECLARATION.matcher(lines[i]);
      if (!d.matches()) {
        continue;
      }
      String list = withoutComment(d.group(1));
      // A list ending in a comma goes on on the next line.
      while (list.endsWith(",") && i + 1 < lines.length) {
        list += " " + withoutComment(lines[++i]);
      }
      Matcher n = NAME.matcher(list);
      while (n.find()) {
        names.add(n.group());
      }
    }
    return names;
  }

  private static String withoutComment(String line) {
    int c = line.indexOf("\\*");
    return (c < 0 ? line : line.substring(0, c)).strip();
  }

  /** The text of a definition {@code head == ...}: from its head to the next line starting a new unit. */
  static String definition(String module, String head) {
    int start = module.indexOf(head + " ==");
    assertTrue(start >= 0, "no definition " + head);
    int end = module.length();
    Matcher next = Pattern.compile("(?m)^(?:\\\\\\*|[A-Za-z]|=====)").matcher(module);
    if (next.find(module.indexOf('\n', start) + 1)) {
      end = next.start();
    }
    return module.substring(start, end);
  }

  /** The declared variables the view's text does not read at the permuted rank ({@code name[r]}). */
  static List<String> missing(Set<String> variables, String view) {
    List<String> out = new ArrayList<>();
    for (String v : variables) {
      if (!Pattern.compile("(?<![A-Za-z0-9_])" + Pattern.quote(v) + "\\[r\\]").matcher(view).find()) {
        out.add(v);
      }
    }
    return out;
  }

  private static String read(String relative) throws IOException {
    return Files.readString(TestSpecs.root().resolve(relative));
  }

  @Test
  void hiCacheSyncRankViewListsEveryVariable() throws IOException {
    Set<String> vars = declaredVariables(read("spec/HiCacheSync.tla"));
    assertTrue(vars.size() >= 20 && vars.containsAll(List.of("coll", "lenv", "cursor")), vars.toString());
    String view = definition(read("modelcheck/models/MCHiCacheSync.tla"), "RankView(r)");
    assertEquals(List.of(), missing(vars, view), "RankView (MCHiCacheSync.tla) leaves out variables");
  }

  @Test
  void hiCachePipelineRankViewListsEveryVariable() throws IOException {
    Set<String> vars = declaredVariables(read("spec/HiCachePipeline.tla"));
    assertEquals(List.of("coll", "ls", "chan"), List.copyOf(vars));
    String view = definition(read("modelcheck/models/MCHiCachePipeline.tla"), "RankView(r)");
    assertEquals(List.of(), missing(vars, view), "RankView (MCHiCachePipeline.tla) leaves out variables");
  }

  /** ReducedSpec's view (docs/explanation/spec-design.md) drops dead prefetch fields, never a variable. */
  @Test
  void hiCachePipelineLiveRankViewListsEveryVariable() throws IOException {
    Set<String> vars = declaredVariables(read("spec/HiCachePipeline.tla"));
    String view = definition(read("modelcheck/models/MCHiCachePipeline.tla"), "LiveRankView(r)");
    assertEquals(List.of(), missing(vars, view), "LiveRankView (MCHiCachePipeline.tla) leaves out variables");
  }

  @Test
  void hiCacheUnifiedRankViewListsEveryVariable() throws IOException {
    Set<String> vars = declaredVariables(read("spec/HiCacheUnified.tla"));
    assertTrue(vars.size() >= 15 && vars.contains("attachDone"), vars.toString());
    String models = read("modelcheck/models/MCHiCacheUnifiedView.tla");
    // attachDone is the one variable not indexed by rank: the view shows it beside the bag.
    vars.remove("attachDone");
    assertEquals(List.of(), missing(vars, definition(models, "RankView(r)")),
        "RankView (MCHiCacheUnifiedView.tla) leaves out variables");
    assertTrue(definition(models, "RankSymmetryView").contains("attachDone"), "RankSymmetryView leaves out attachDone");
  }

  /**
   * HiCacheUnified's RecvComplete reads rank 0's waiting request; the view is sound because TreeAgreement checks
   * that every rank agrees there (MCHiCacheUnifiedView.tla): every cfg that can run under the view lists it.
   */
  @Test
  void everyUnifiedCfgUnderTheViewChecksTreeAgreement() throws IOException {
    Path models = TestSpecs.root().resolve("modelcheck/models");
    List<Path> cfgs = new ArrayList<>();
    cfgs.add(models.resolve("adhoc-unified.cfg.template")); // the ad-hoc safety part gets the VIEW (AdhocModule)
    try (var files = Files.list(models)) {
      files.filter(f -> f.getFileName().toString().startsWith("MCHiCacheUnified_")).forEach(cfgs::add);
    }
    for (Path cfg : cfgs) {
      String text = Files.readString(cfg);
      if (cfg.getFileName().toString().startsWith("adhoc") || text.contains("VIEW RankSymmetryView")) {
        assertTrue(Pattern.compile("(?m)^\\s+TreeAgreement\\s*$").matcher(text).find(), cfg + " lacks TreeAgreement");
      }
    }
  }

  @Test
  void theCheckSeesAVariableLeftOut() {
    String module = "VARIABLE a\n\\* b: comment\nVARIABLES b, c,\n    d\nOp == 1\n";
    assertEquals(List.of("a", "b", "c", "d"), List.copyOf(declaredVariables(module)));
    String mc = "\\* the view\nRankView(r) == <<a[r], b[r],\n     [t \\in T |-> c[r][t]]>>\n\\* next\nX == d[r]\n";
    String view = definition(mc, "RankView(r)");
    assertFalse(view.contains("X =="), view);
    assertEquals(List.of("d"), missing(declaredVariables(module), view));
  }
}
