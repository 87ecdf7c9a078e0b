package dev.hicachesync.modelcheck.doc;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.Catalogue;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.Recorded;
import dev.hicachesync.modelcheck.Tier;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One tier of the model catalogue as a markdown table, one row per model in catalogue order, with the
 * figures {@code check --record} wrote into the catalogue (distinct states, depth, seconds).
 *
 * <p>{@code docs/reference/catalogue.md} holds the tables between markers that name the tier; {@link
 * #main} rewrites them (with {@code --write}) or says which ones are out of date. The docs test of the
 * modelcheck module runs the same comparison, so a catalogue change without the regenerated table fails
 * the build.
 */
public final class CatalogueTable {

  /** The markdown file that holds the generated tables, relative to the repository root. */
  public static final String DOC = "docs/reference/catalogue.md";
  /** The catalogue, relative to the repository root. */
  public static final String CATALOGUE = "modelcheck/models/" + Catalogue.FILE_NAME;
  /** The block kind of the generated tables: {@code <!-- BEGIN catalogue-table tier=ci -->}. */
  public static final String BLOCK = "catalogue-table";
  /** What a reader (or a failing test) runs to bring the tables up to date. */
  public static final String REGENERATE =
      "mvn -B -q -pl modelcheck -am test -Dtest=CatalogueDocTest -Dsurefire.failIfNoSpecifiedTests=false"
          + " -Dhicache.docs.write=true";

  private CatalogueTable() {}

  /** The table of one tier: a header, a separator and one row per model. */
  public static List<String> render(Catalogue catalogue, Tier tier) {
    List<String> lines = new ArrayList<>();
    lines.add("| model | module | bug | ref | version | dp,cp,tp,pp | expected | liveness | distinct | depth | seconds |");
    lines.add("|---|---|---|---|---|---|---|---|---:|---:|---:|");
    for (ModelEntry m : catalogue.tier(tier)) {
      Recorded r = m.recorded();
      lines.add("| `" + m.name() + "` | " + m.module() + " | " + orDash(m.bug()) + " | " + orDash(m.ref())
          + " | " + m.version() + " | " + m.topology().sizes() + " | " + m.expected() + " | "
          + (m.hasLiveness() ? "yes" : "-") + " | "
          + (r == null ? "-" : String.format(Locale.ROOT, "%,d", r.distinct())) + " | "
          + (r == null ? "-" : Integer.toString(r.depth())) + " | "
          + (r == null ? "-" : String.format(Locale.ROOT, "%.1f", r.seconds())) + " |");
    }
    return lines;
  }

  /** The tier a block's argument names ({@code tier=ci}). */
  static Tier tierOf(String argument) throws BadInputException {
    if (!argument.startsWith("tier=")) {
      throw new BadInputException("a " + BLOCK + " block names its tier, e.g. 'tier=ci'; got '" + argument + "'");
    }
    try {
      return Tier.parse(argument.substring("tier=".length()));
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage());
    }
  }

  /** The doc's text with every catalogue-table block regenerated from the catalogue. */
  public static String regenerate(String doc, Catalogue catalogue) throws BadInputException {
    return GeneratedBlocks.replace(doc, BLOCK, argument -> render(catalogue, tierOf(argument)));
  }

  /**
   * {@code CatalogueTable [--write] [ROOT]}: compares (or with {@code --write} rewrites) the generated
   * tables of {@code ROOT/docs/reference/catalogue.md} (ROOT defaults to the working directory). Exit 0
   * when they are up to date (or were written), 1 when they differ, 2 on bad input.
   */
  public static void main(String[] args) {
    boolean write = false;
    Path root = Path.of(".");
    for (String a : args) {
      if (a.equals("--write")) {
        write = true;
      } else {
        root = Path.of(a);
      }
    }
    try {
      Path doc = root.resolve(DOC);
      String before = GeneratedBlocks.read(doc);
      String after = regenerate(before, Catalogue.load(root.resolve(CATALOGUE)));
      if (after.equals(before)) {
        System.out.println(DOC + ": up to date");
      } else if (write) {
        GeneratedBlocks.write(doc, after);
        System.out.println(DOC + ": tables regenerated from " + CATALOGUE);
      } else {
        System.out.println(DOC + ": out of date; run with --write, or: " + REGENERATE);
        System.exit(1);
      }
    } catch (BadInputException | IOException e) {
      System.err.println("CatalogueTable: " + e.getMessage());
      System.exit(2);
    }
  }

  private static String orDash(String s) {
    return s == null || s.isBlank() ? "-" : s;
  }
}
