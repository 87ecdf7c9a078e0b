package dev.hicachesync.cli;

import dev.hicachesync.topology.Topology;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.report.swimlane.CounterexampleView;
import dev.hicachesync.report.swimlane.ReportDirectory;
import dev.hicachesync.report.swimlane.SwimlanePage;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * Writes the swimlane page of every counterexample {@code check} prints ({@code --report DIR}, by
 * default {@code modelcheck/target/reports}) and names the file under the text table.
 */
final class SwimlaneReports {

  private final ReportDirectory directory;

  SwimlaneReports(Path dir) {
    this.directory = new ReportDirectory(dir);
  }

  /** For a result with a counterexample: writes {@code <name>.html} and prints its path. */
  void write(PrintWriter out, String name, Topology topology, TlcResult r) throws IOException {
    if (r.trace().isEmpty()) {
      return;
    }
    CounterexampleView view = CounterexampleView.of(name, r.verdict().toString(), r.trace().get(), topology);
    out.println("swimlanes: " + directory.write(name, SwimlanePage.render(view)));
  }
}
