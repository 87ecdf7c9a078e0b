package dev.hicachesync.cli;

import dev.hicachesync.modelcheck.AdhocModel;
import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.TextTable;
import dev.hicachesync.modelcheck.TlcResult;
import java.io.IOException;
import java.io.PrintWriter;

/** Checks one ad-hoc model and prints its row and, if any, its counterexample. */
final class AdhocRun {

  private final PrintWriter out;
  private final PrintWriter err;
  private final int width;

  AdhocRun(PrintWriter out, PrintWriter err, int width) {
    this.out = out;
    this.err = err;
    this.width = width;
  }

  /** 0 if every property holds, 1 if one is violated, 3 if TLC failed or timed out. */
  int run(AdhocModel model, CheckCommand.Checker checker) throws BadInputException, IOException, InterruptedException {
    TlcResult r = checker.check(model);
    checker.progress().println(Reports.summary(model.name(), r));
    out.print(new TextTable("model", "version", "dp,cp,tp,pp", "policy", "storage", "distinct", "depth", "time", "observed")
        .row(model.name(), model.version(), model.topology().toString(), model.policy(), model.storage() ? "on" : "off",
            Reports.count(r.distinct()), Integer.toString(r.depth()), Reports.seconds(r.seconds()), r.verdict().toString())
        .render());
    Reports.details(out, model.name(), model.topology(), r, width);
    checker.pages().write(out, model.name(), model.topology(), r);
    switch (r.verdict().kind()) {
      case HOLDS:
        return 0;
      case DEADLOCK:
      case VIOLATES:
        return 1;
      default:
        err.println("hicache-sync check: TLC failed: " + r.message());
        return Main.EXIT_TOOL_FAILED;
    }
  }
}
