package dev.hicachesync.cli;

import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.topology.Topology;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.Workspace;
import dev.hicachesync.report.swimlane.CounterexampleView;
import dev.hicachesync.report.swimlane.ReportDirectory;
import dev.hicachesync.report.swimlane.SpecSource;
import dev.hicachesync.report.swimlane.Story;
import dev.hicachesync.report.swimlane.SwimlanePage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes the swimlane page of every counterexample {@code check} prints ({@code --report DIR}, by
 * default {@code modelcheck/target/reports}) and names the file under the text table. A catalogue model's
 * page opens with its bug, reference and description, the violated property's definition and what each
 * action models ({@link Story}).
 */
final class SwimlaneReports {

  private final ReportDirectory directory;
  private final Workspace workspace;
  private final Map<String, ModelEntry> catalogue;
  private final SpecSource spec;
  private int written;

  /** {@code catalogue}: the catalogue's models by name (empty when it cannot be read). */
  SwimlaneReports(ReportDirectory directory, Workspace workspace, Map<String, ModelEntry> catalogue) {
    this.directory = directory;
    this.workspace = workspace;
    this.catalogue = catalogue;
    this.spec = new SpecSource(List.of(workspace.models(), workspace.spec()));
  }

  /** For a result with a counterexample: writes {@code <name>.html} and returns its path. */
  Optional<Path> write(String name, Topology topology, TlcResult r) throws IOException {
    if (r.trace().isEmpty()) {
      return Optional.empty();
    }
    ModelEntry m = catalogue.get(name);
    String property = r.verdict().kind() == Verdict.Kind.VIOLATES ? r.verdict().property() : "";
    Story story = Story.of(m == null ? null : m.bug(), m == null ? null : m.ref(),
        m == null ? null : workspace.models().resolve(m.cfg()), m == null ? null : m.module(), property, r.trace().get(), spec);
    CounterexampleView view = CounterexampleView.of(name, r.verdict().toString(), r.trace().get(), topology, story);
    Path page = directory.write(name, SwimlanePage.render(view));
    written++;
    return Optional.of(page);
  }

  /** How many pages were written. */
  int written() {
    return written;
  }

  /** The folder the pages go to. */
  ReportDirectory directory() {
    return directory;
  }
}
