package dev.hicachesync.cli;

import dev.hicachesync.topology.Topology;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.report.swimlane.CounterexampleView;
import dev.hicachesync.report.swimlane.ReportDirectory;
import dev.hicachesync.report.swimlane.SwimlanePage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Writes the swimlane page of every counterexample {@code check} finds ({@code --report DIR}, by
 * default {@code modelcheck/target/reports}).
 */
final class SwimlaneReports {

  private final ReportDirectory directory;

  SwimlaneReports(Path dir) {
    this.directory = new ReportDirectory(dir);
  }

  /** For a result with a counterexample: writes {@code <name>.html} and returns its path. */
  Optional<Path> write(String name, Topology topology, TlcResult r) throws IOException {
    if (r.trace().isEmpty()) {
      return Optional.empty();
    }
    CounterexampleView view = CounterexampleView.of(name, r.verdict().toString(), r.trace().get(), topology);
    return Optional.of(directory.write(name, SwimlanePage.render(view)));
  }
}
