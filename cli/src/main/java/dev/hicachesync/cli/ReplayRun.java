package dev.hicachesync.cli;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.Catalogue;
import dev.hicachesync.modelcheck.ModelChecker;
import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.Workspace;
import dev.hicachesync.modelcheck.replay.CatalogueReplays;
import dev.hicachesync.modelcheck.replay.ReplayReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;

/**
 * {@code check --replay MODEL}: replays a catalogue model's counterexample (a fixed twin: its bug's) on the
 * implementation and prints both sides. Exit 0 when the replay came out as expected (the bug's violation at
 * the same step; clean for a fixed twin), 1 when code and spec part ways (a disagreement), 2 when the replay
 * is refused: the counterexample has an action, constant or bug switch the implementation has no seam for
 * (one line on stderr naming why), as for any other request the tool cannot carry out.
 */
final class ReplayRun {

  private final PrintWriter out;
  private final PrintWriter err;

  ReplayRun(PrintWriter out, PrintWriter err) {
    this.out = out;
    this.err = err;
  }

  int run(Workspace workspace, Catalogue catalogue, String model, ModelChecker checker)
      throws BadInputException, IOException, InterruptedException {
    CatalogueReplays replays = new CatalogueReplays(workspace, catalogue, checker);
    ReplayReport report = replays.replay(model);
    out.print(report.render());
    if (report.outcome() == ReplayReport.Outcome.NOT_REPLAYABLE) {
      err.println("hicache-sync check: --replay " + model + " refused: not replayable: " + report.detail());
      return Main.EXIT_BAD_INPUT;
    }
    boolean twin = catalogue.named(List.of(model)).get(0).expectedVerdict().kind() == Verdict.Kind.HOLDS;
    return report.asExpected(twin) ? 0 : 1;
  }
}
