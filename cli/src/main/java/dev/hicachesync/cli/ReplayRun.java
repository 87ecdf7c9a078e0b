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
 * the same step; clean for a fixed twin), 1 when code and spec part ways or the trace cannot be replayed.
 */
final class ReplayRun {

  private final PrintWriter out;

  ReplayRun(PrintWriter out) {
    this.out = out;
  }

  int run(Workspace workspace, Catalogue catalogue, String model, ModelChecker checker)
      throws BadInputException, IOException, InterruptedException {
    CatalogueReplays replays = new CatalogueReplays(workspace, catalogue, checker);
    ReplayReport report = replays.replay(model);
    out.print(report.render());
    boolean twin = catalogue.named(List.of(model)).get(0).expectedVerdict().kind() == Verdict.Kind.HOLDS;
    return report.asExpected(twin) ? 0 : 1;
  }
}
