package dev.hicachesync.modelcheck.doc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.Catalogue;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.Tier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Catalogue figures written in prose agree with catalogue.json: a distinct-state count or a depth that
 * follows a catalogue model's name (in backticks, on the same line) is that model's recorded one, and
 * "N ci models" / "N deep models" is the size of that tier. The generated tables are CatalogueDocTest's.
 */
class DocFiguresTest {

  private static final Pattern MODEL = Pattern.compile("`([A-Za-z0-9_.-]+)`");
  private static final String NUMBER = "(\\d{1,3}(?:,\\d{3})+|\\d+)";
  private static final Pattern DISTINCT = Pattern.compile(NUMBER + " distinct");
  private static final Pattern DEPTH = Pattern.compile("depth " + NUMBER);
  private static final Pattern TIER_SIZE = Pattern.compile(NUMBER + " `?(ci|deep)`? models");

  @Test
  void proseFiguresAreTheCataloguesOwn() throws Exception {
    Catalogue catalogue = Catalogue.load(Docs.root().resolve(CatalogueTable.CATALOGUE));
    Map<String, ModelEntry> byName =
        catalogue.models().stream().collect(Collectors.toMap(ModelEntry::name, Function.identity()));
    List<String> wrong = new ArrayList<>();
    int checked = 0;
    for (Path doc : Docs.files()) {
      List<String> lines = Docs.prose(Docs.lines(doc));
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        String where = doc + ":" + (i + 1) + ": ";
        for (Figure f : figures(line, DISTINCT, byName)) {
          checked++;
          long want = f.model().recorded().distinct();
          if (f.value() != want) {
            wrong.add(where + f.value() + " distinct for `" + f.model().name() + "`, the catalogue records " + want);
          }
        }
        for (Figure f : figures(line, DEPTH, byName)) {
          checked++;
          int want = f.model().recorded().depth();
          if (f.value() != want) {
            wrong.add(where + "depth " + f.value() + " for `" + f.model().name() + "`, the catalogue records " + want);
          }
        }
        Matcher tier = TIER_SIZE.matcher(line);
        while (tier.find()) {
          checked++;
          int want = catalogue.tier(Tier.parse(tier.group(2))).size();
          if (number(tier.group(1)) != want) {
            wrong.add(where + "'" + tier.group() + "', the catalogue's " + tier.group(2) + " tier has " + want);
          }
        }
      }
    }
    assertTrue(checked > 0, "no catalogue figure found in the docs");
    assertTrue(wrong.isEmpty(), "figures that differ from " + CatalogueTable.CATALOGUE + " (correct the doc, or"
        + " re-record the catalogue with check --record and regenerate):\n  " + String.join("\n  ", wrong));
  }

  @Test
  void aFigureBelongsToTheNearestModelNamedBeforeIt() {
    ModelEntry a = entry("a_model", 10, 3);
    ModelEntry b = entry("b_model", 20, 4);
    Map<String, ModelEntry> byName = Map.of("a_model", a, "b_model", b);
    List<Figure> found = figures("`a_model` 10 distinct, `other` and `b_model` 1,020 distinct; 7 distinct", DISTINCT, byName);
    assertEquals(List.of(new Figure(a, 10), new Figure(b, 1020), new Figure(b, 7)), found);
    assertEquals(List.of(), figures("5 distinct before `a_model`", DISTINCT, byName));
  }

  record Figure(ModelEntry model, long value) {}

  /** The figures of one line that follow a catalogue model's name, each with the nearest such name. */
  static List<Figure> figures(String line, Pattern figure, Map<String, ModelEntry> byName) {
    List<Figure> found = new ArrayList<>();
    Matcher f = figure.matcher(line);
    while (f.find()) {
      ModelEntry nearest = null;
      Matcher m = MODEL.matcher(line);
      while (m.find() && m.start() < f.start()) {
        ModelEntry e = byName.get(m.group(1));
        if (e != null) {
          nearest = e;
        }
      }
      if (nearest != null && nearest.recorded() != null) {
        found.add(new Figure(nearest, number(f.group(1))));
      }
    }
    return found;
  }

  private static long number(String text) {
    return Long.parseLong(text.replace(",", ""));
  }

  private static ModelEntry entry(String name, long distinct, int depth) {
    return new ModelEntry(name, "M", name + ".cfg", "ci", null, null, "merged",
        new dev.hicachesync.topology.Topology(1, 2, 1, 1), "holds", false,
        new dev.hicachesync.modelcheck.Recorded(distinct, 1.0, depth));
  }
}
