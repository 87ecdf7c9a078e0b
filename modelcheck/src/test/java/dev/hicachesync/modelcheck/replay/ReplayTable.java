package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.Catalogue;
import dev.hicachesync.modelcheck.ModelChecker;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.ProgressListener;
import dev.hicachesync.modelcheck.TestSpecs;
import dev.hicachesync.modelcheck.TlcJar;
import dev.hicachesync.modelcheck.TlcRunner;
import dev.hicachesync.modelcheck.Workspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The committed table of replays, {@code docs/reference/replays.md}: for every model {@code check --replay}
 * covers (each ci bug model of every module, each followed by its fixed twin), the outcome it must have and,
 * when it is not reproduced, why. The replay tests assert every row, so a seam that stops working, or a model
 * whose replay starts to work, fails the build until the table says so; a run writes the table it observed to
 * {@code modelcheck/target/replays-observed.md} (rows in the committed table's order) to copy from.
 */
final class ReplayTable {

  /** The committed table. */
  static final Path FILE = TestSpecs.root().resolve("docs/reference/replays.md");
  /** What a run observed, merged over the test classes that ran. */
  static final Path OBSERVED = TestSpecs.root().resolve("modelcheck/target/replays-observed.md");
  private static final Map<String, Row> SEEN = new ConcurrentHashMap<>();

  /** One row: the model, its module (without {@code MC}), the outcome word, and why (empty when reproduced or clean). */
  record Row(String model, String module, String outcome, String why) {
    String render() {
      return "| `" + model + "` | " + module + " | " + outcome + " | " + why.replace("|", "\\|") + " |";
    }
  }

  private ReplayTable() {}

  /** The replays of the repository's catalogue, TLC run in a child JVM with one worker where needed. */
  static CatalogueReplays replays() throws Exception {
    Workspace workspace = Workspace.fromRoot();
    assertTrue(Files.isRegularFile(workspace.catalogue()), "no model catalogue");
    ModelChecker checker = new ModelChecker(workspace, new TlcRunner(TlcJar.locate(), ProgressListener.NONE), 1, null,
        List.of());
    return new CatalogueReplays(workspace, Catalogue.load(workspace.catalogue()), checker);
  }

  /** The committed rows, in order. */
  static List<Row> rows() {
    List<Row> rows = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(FILE)) {
        if (!line.startsWith("| `")) {
          continue;
        }
        String[] cells = line.substring(1, line.length() - 1).split("(?<!\\\\)\\|", -1);
        rows.add(new Row(cells[0].trim().replace("`", ""), cells[1].trim(), cells[2].trim(),
            cells[3].trim().replace("\\|", "|")));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /** The outcome word of a report: what {@code check --replay} exits with, in words. */
  static String outcome(ReplayReport r) {
    return switch (r.outcome()) {
      case SAME_VIOLATION -> "reproduced";
      case CLEAN -> "clean";
      case PART_WAYS -> "disagrees";
      case NOT_REPLAYABLE -> "not replayable";
    };
  }

  /** The observed row of {@code model}. */
  static Row observed(ModelEntry model, ReplayReport r) {
    return new Row(model.name(), model.module().replaceFirst("^MC", ""), outcome(r),
        r.outcome() == ReplayReport.Outcome.SAME_VIOLATION || r.outcome() == ReplayReport.Outcome.CLEAN ? "" : r.detail());
  }

  /**
   * Replays the row's model and asserts the committed outcome and reason; records what it saw for {@link
   * #OBSERVED} either way.
   */
  static void check(CatalogueReplays replays, Row expected) throws Exception {
    ReplayReport r = replays.replay(expected.model());
    System.out.print(r.render());
    Row seen = observed(Catalogue.load(Workspace.fromRoot().catalogue()).named(List.of(expected.model())).get(0), r);
    SEEN.put(seen.model(), seen);
    writeObserved();
    assertEquals(expected.render(), seen.render(), expected.model() + ": the replay's outcome is not the committed"
        + " one in " + FILE + " (observed rows: " + OBSERVED + ")\n" + r.render());
  }

  private static synchronized void writeObserved() throws IOException {
    List<String> lines = new ArrayList<>();
    for (Row row : rows()) {
      Row seen = SEEN.get(row.model());
      lines.add((seen != null ? seen : row).render());
    }
    Files.createDirectories(OBSERVED.getParent());
    Files.write(OBSERVED, lines);
  }
}
