package dev.hicachesync.cli;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.ProgressReporter;
import dev.hicachesync.modelcheck.TlcJar;
import dev.hicachesync.modelcheck.TlcRunner;
import dev.hicachesync.modelcheck.Workspace;
import dev.hicachesync.modelcheck.validate.PipelineTraces;
import dev.hicachesync.modelcheck.validate.RunTraces;
import dev.hicachesync.modelcheck.validate.SpecEvent;
import dev.hicachesync.modelcheck.validate.SpecEvents;
import dev.hicachesync.modelcheck.validate.TraceValidator;
import dev.hicachesync.modelcheck.validate.Validation;
import dev.hicachesync.report.swimlane.ReportDirectory;
import dev.hicachesync.report.swimlane.TracePage;
import dev.hicachesync.trace.CollectiveRecord;
import dev.hicachesync.trace.Trace;
import dev.hicachesync.trace.TraceFeature;
import dev.hicachesync.trace.TraceFormatException;
import dev.hicachesync.trace.TraceHeader;
import dev.hicachesync.trace.ndjson.TraceReader;
import dev.hicachesync.trace.UnifiedTraceFeatures;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code validate-trace FILE}: is a recorded run a behaviour of the specification?
 *
 * <p>Reads the NDJSON trace strictly, writes it as the TLA+ module {@code TraceLog} with the cfg of {@code
 * spec/TraceHiCacheSync.tla} (with PP > 1 {@code spec/TraceHiCachePipeline.tla}; version {@code unified}:
 * {@code spec/TraceHiCacheUnified.tla}) under {@code
 * modelcheck/target/tlc/trace-<name>/}, and runs TLC there.
 * Exit 0: accepted; 1: rejected (the first event no behaviour matches: event number, line, rank, and what
 * the spec allowed there) or a behaviour that matches the trace breaks a model invariant; 2: the file is
 * not a trace (one line naming the line number); 3: TLC failed.
 */
@Command(name = "validate-trace", sortOptions = false,
    description = "Check a trace recorded by `simulate --trace` against the TLA+ specification with TLC.")
public final class ValidateTraceCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help.")
  boolean help;

  @Parameters(index = "0", paramLabel = "FILE", description = "The trace (NDJSON).")
  Path file;

  @Option(names = "--spec-dir", paramLabel = "DIR", description = "Specification directory (default: spec).")
  Path specDir;

  @Option(names = "--time-limit", paramLabel = "S", defaultValue = "600",
      description = "Stop TLC after S seconds (default: ${DEFAULT-VALUE}).")
  int timeLimit;

  @Option(names = "--window", paramLabel = "EVENTS", defaultValue = "" + TraceValidator.DEFAULT_WINDOW,
      description = "Validate a trace of a run's own loop in windows of EVENTS events, each starting from the state"
          + " TLC reached at the end of the previous one (the same verdict as one pass: TraceHiCacheRun.tla is"
          + " deterministic given the trace); 0: one pass (default: ${DEFAULT-VALUE}).")
  int window;

  @Option(names = "--report", paramLabel = "DIR", description = "Write the trace as an HTML swimlane page into DIR"
      + " (default: modelcheck/target/reports).")
  Path reportDir;

  /** The version whose traces {@code spec/TraceHiCacheUnified.tla} follows (HiCacheUnified.tla). */
  static final String UNIFIED = "unified";

  @Override
  public Integer call() throws IOException, InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (window < 0) {
      err.println("hicache-sync validate-trace: --window must be >= 0 (0: one pass), got " + window);
      return Main.EXIT_BAD_INPUT;
    }
    if (timeLimit < 1) {
      err.println("hicache-sync validate-trace: --time-limit must be at least 1 second (got " + timeLimit + ")");
      return Main.EXIT_BAD_INPUT;
    }
    ReportDirectory pages; // checked before the trace is read and TLC runs: a bad folder must not end a run
    try {
      pages = ReportDirectory.checked("--report", reportDir != null ? reportDir
          : Workspace.fromRoot().work().getParent().resolve("reports"));
    } catch (IllegalArgumentException e) {
      err.println("hicache-sync validate-trace: " + e.getMessage());
      return Main.EXIT_BAD_INPUT;
    }
    Trace trace;
    try {
      trace = TraceReader.read(file);
      String runRefusal = RunTraces.refusal(trace.header()); // a run's own loop: TraceHiCacheRun.tla
      if (runRefusal != null) {
        err.println("hicache-sync validate-trace: " + runRefusal);
        return Main.EXIT_BAD_INPUT;
      }
      TraceFeature unfollowable = RunTraces.applies(trace.header()) ? null : trace.header().unfollowable();
      if (unfollowable != null && !UNIFIED.equals(trace.header().version())) {
        // before the consistency checks: those assume the spec's scheduler
        err.println("hicache-sync validate-trace: the trace uses feature '" + unfollowable.label()
            + "', which the spec cannot follow: " + unfollowable.whyNot());
        return Main.EXIT_BAD_INPUT;
      }
      UnifiedTraceFeatures.Refusal refused = UNIFIED.equals(trace.header().version())
          && !RunTraces.applies(trace.header()) ? UnifiedTraceFeatures.unfollowable(trace.header()) : null;
      if (refused != null) { // the unified trace module's own list (TraceHiCacheUnified.tla)
        err.println("hicache-sync validate-trace: the trace uses feature '" + refused.label()
            + "', which the spec (HiCacheUnified) cannot follow: " + refused.whyNot());
        return Main.EXIT_BAD_INPUT;
      }
      TraceReader.checkRun(file, trace);
    } catch (TraceFormatException e) {
      err.println("hicache-sync validate-trace: not a trace: " + e.getMessage());
      return Main.EXIT_BAD_INPUT;
    }
    String pipelineRefusal = UNIFIED.equals(trace.header().version()) || RunTraces.applies(trace.header()) ? null
        : PipelineTraces.refusal(trace.header()); // PP > 1 beyond TraceHiCachePipeline.tla
    if (pipelineRefusal != null) {
      err.println("hicache-sync validate-trace: " + file + ": " + pipelineRefusal);
      return Main.EXIT_BAD_INPUT;
    }
    Workspace workspace = Workspace.fromRoot().with(null, specDir);
    try { // before TLC runs: a bad path is bad input, and must not cost a validation first
      if (specDir != null) {
        OutputPaths.checkInputFolder("--spec-dir", specDir, null); // a folder without the trace spec: TLC's exit 3
      }
    } catch (IllegalArgumentException e) {
      err.println("hicache-sync validate-trace: " + e.getMessage());
      return Main.EXIT_BAD_INPUT;
    }
    ProgressReporter progress = new ProgressReporter(err, System.console() != null);
    TlcRunner runner;
    try {
      runner = new TlcRunner(TlcJar.locate(), progress);
    } catch (BadInputException e) {
      err.println("hicache-sync validate-trace: " + e.getMessage());
      return Main.EXIT_TOOL_FAILED;
    }
    String name = runName(file);
    Validation v = new TraceValidator(workspace, runner, Duration.ofSeconds(timeLimit))
        .validate(trace, name, file.toString(), window);
    int code = report(out, err, file.toString(), trace.header(), v);
    if (v.outcome() != Validation.Outcome.TLC_FAILED) {
      Path page = pages.write("trace-" + name, TracePage.render(file.toString(), trace.header(), SpecEvents.merge(trace), v));
      out.println("swimlanes: " + page);
    }
    return code;
  }

  /** Prints the outcome; returns the exit code. */
  static int report(PrintWriter out, PrintWriter err, String source, TraceHeader h, Validation v) {
    String tlc = v.tlc().map(r -> String.format("TLC: %,d distinct states, %.1f s", r.distinct(), r.seconds()))
        .orElse("");
    String model = h.version() + " dp,cp,tp,pp=" + h.dp() + "," + h.cp() + "," + h.tp() + "," + h.pp();
    String module = RunTraces.applies(h) ? RunTraces.MODEL : UNIFIED.equals(h.version()) ? "HiCacheUnified"
        : PipelineTraces.applies(h) ? PipelineTraces.MODEL : "HiCacheSync";
    switch (v.outcome()) {
      case ACCEPTED:
        out.println(source + ": accepted: all " + v.events() + " events are a behaviour of " + module + " ("
            + model + "); " + tlc);
        return 0;
      case REJECTED: {
        SpecEvent e = v.event().orElseThrow();
        out.println(source + ": rejected: no behaviour of " + module + " (" + model + ") matches event "
            + e.number() + " of " + v.events() + " (" + where(e) + "): " + e.describe());
        if (v.allowed().isEmpty()) {
          out.println("  the spec allowed there: nothing (no state reached this event)");
        }
        for (String a : v.allowed()) {
          out.println("  the spec allowed there: " + a);
        }
        v.disagreement().ifPresent(d -> out.println("  the recorded ranks first disagree at " + d));
        out.println("  " + tlc);
        return 1;
      }
      case INVARIANT_BROKEN:
        out.println(source + ": a behaviour of " + module + " (" + model + ") that matches this trace breaks "
            + v.invariant() + v.event().map(e -> " after event " + e.number() + " of " + v.events() + " ("
                + where(e) + "): " + e.describe()).orElse(" in its initial state") + "; " + tlc);
        v.disagreement().ifPresent(d -> out.println("  the recorded ranks first disagree at " + d));
        return 1;
      default:
        err.println("hicache-sync validate-trace: TLC failed: " + v.message());
        return Main.EXIT_TOOL_FAILED;
    }
  }

  private static String where(SpecEvent e) {
    String who = e.first() instanceof CollectiveRecord ? "first logged by rank " : "rank ";
    return "line " + e.line() + ", " + who + e.first().rank() + ", step " + e.first().step();
  }

  /** A run directory name from the file name: letters, digits, '-', '_' only. */
  static String runName(Path file) {
    String n = file.getFileName().toString().replaceFirst("\\.(nd)?jsonl?$", "");
    n = n.replaceAll("[^A-Za-z0-9_-]", "_");
    return n.isEmpty() ? "trace" : n;
  }
}
