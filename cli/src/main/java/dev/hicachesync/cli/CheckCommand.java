package dev.hicachesync.cli;

import dev.hicachesync.modelcheck.AdhocModel;
import dev.hicachesync.modelcheck.AdhocResult;
import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.Catalogue;
import dev.hicachesync.modelcheck.CatalogueRecorder;
import dev.hicachesync.modelcheck.ModelChecker;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.ProgressListener;
import dev.hicachesync.modelcheck.ProgressReporter;
import dev.hicachesync.modelcheck.Tier;
import dev.hicachesync.modelcheck.TlcJar;
import dev.hicachesync.modelcheck.TlcJvmPool;
import dev.hicachesync.modelcheck.TlcRunner;
import dev.hicachesync.modelcheck.TlcSearch;
import dev.hicachesync.modelcheck.WorkerChoice;
import dev.hicachesync.modelcheck.Workspace;
import dev.hicachesync.report.swimlane.ReportDirectory;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code check}: runs the model catalogue (or chosen models) through TLC and compares each
 * verdict with the expected one, or checks one ad-hoc model built from the command line.
 *
 * <p>Exit codes: catalogue runs 0 iff every model matched its expected verdict, else 1; ad-hoc
 * runs 0 if every property holds, 1 if one is violated, 3 if TLC failed or timed out; 2 for bad
 * input, always with one line on stderr.
 */
@Command(
    name = "check",
    description = {
      "Model-check the protocol with TLC.",
      "  check                     the default catalogue (tier ci), one row per model",
      "  check --catalogue         every model incl. the bug models, as the bug table",
      "  check --dp D --cp C --tp T --version V   one ad-hoc model,",
      "                            safety first, then liveness; --pp > 1 runs",
      "                            HiCachePipeline, --dp > 1 HiCacheReplicas",
      "  check --distributed [N] ...   invariants with TLC's distributed mode (a server",
      "                            and N local workers; workers on other machines may join)",
      "  check --simulate N --cp C ... an ad-hoc model's invariants on N random",
      "                            behaviours (--depth, --seed): finds bugs, proves nothing"
    },
    sortOptions = false)
public final class CheckCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help.")
  boolean help;

  @Option(names = "--catalogue", description = "Run the whole catalogue (all tiers, bug models included) and print the bug table.")
  boolean catalogue;

  @Option(names = "--model", paramLabel = "NAME", description = "Run this catalogue model (repeatable).")
  List<String> models = new ArrayList<>();

  @Option(names = "--tier", paramLabel = "ci|deep|all", description = "Catalogue tier to run (default: ci; all with --catalogue).")
  String tier;

  @Option(names = "--dp", paramLabel = "D", description = "Ad-hoc model: attention data-parallel size (dp x cp x tp x pp: at most "
      + dev.hicachesync.modelcheck.AdhocModel.MAX_RANKS + " ranks).")
  Integer dp;

  @Option(names = "--cp", paramLabel = "C", description = "Ad-hoc model: context-parallel size.")
  Integer cp;

  @Option(names = "--tp", paramLabel = "T", description = "Ad-hoc model: attention tensor-parallel size.")
  Integer tp;

  @Option(names = "--pp", paramLabel = "P", description = "Ad-hoc model: pipeline stages (default 1).")
  Integer pp;

  @Option(names = "--version", paramLabel = "V", description = "Ad-hoc model: pre20460, post20460, merged, pipelined or unified (the default: SGLang's unified radix cache, HiCacheUnified.tla, --dp 1 --pp 1).")
  String version;

  @Option(names = "--policy", paramLabel = "P", description = "Ad-hoc model: best_effort, wait_complete or timeout"
      + " (default: best_effort; timeout with --pp > 1; wait_complete with --dp > 1).")
  String policy;

  @Option(names = "--storage", paramLabel = "on|off", description = "Ad-hoc model: storage tier (default on).")
  String storage;

  @Option(names = "--requests", paramLabel = "K", description = "Ad-hoc model: requests in the stream (default:"
      + " chosen by module and ranks so that the exhaustive search fits; the run says which).")
  Integer requests;

  @Option(names = "--exhaustive", description = "Ad-hoc model: search every state even above the size the module"
      + " searches exhaustively by default (larger models are simulated otherwise).")
  boolean exhaustive;

  @Mixin
  TlcSearchOptions searchOptions;

  @Option(names = "--list", description = "List the selected catalogue models with their recorded figures; run nothing.")
  boolean list;

  @Option(names = "--record", description = "Write the measured distinct states, time and depth of each model that"
      + " matched its expected verdict into the catalogue's \"recorded\" fields.")
  boolean record;

  @Option(names = "--workers", paramLabel = "N", description = "TLC workers for models without liveness (default: cores, at most 2,"
      + " shared out among parallel --jobs).")
  Integer workers;

  @Option(names = "--jobs", paramLabel = "N", description = "Catalogue models checked at once, each in its own TLC"
      + " JVM (default: the cores); rows stay in catalogue order.")
  Integer jobs;

  @Option(names = "--jvm-per-model", description = "Catalogue runs: start a TLC JVM for every model, as --record does"
      + " (by default a one-worker exhaustive search reuses a TLC JVM that ran an earlier model with the same JVM"
      + " options, which prints the same).")
  boolean jvmPerModel;

  @Option(names = "--time-limit", paramLabel = "S", description = "Stop each model (each part of an ad-hoc model) after S seconds"
      + " (default: 10x its recorded time, else 1 h; ad-hoc liveness 10 min).")
  Integer timeLimit;

  @Option(names = "--models-dir", paramLabel = "DIR", description = "Models directory (default: modelcheck/models).")
  Path modelsDir;

  @Option(names = "--spec-dir", paramLabel = "DIR", description = "Specification directory (default: spec).")
  Path specDir;

  @Option(names = "--replay", paramLabel = "MODEL", description = "Replay the catalogue model's counterexample (a fixed"
      + " model: its bug twin's) on the Java implementation and print both sides.")
  String replay;

  @Option(names = "--report", paramLabel = "DIR", description = "Write each counterexample as an HTML swimlane page"
      + " into DIR (default: modelcheck/target/reports).")
  Path reportDir;

  @Option(names = "--verbose", description = "Catalogue runs: print each model's result as it finishes and each"
      + " counterexample as a per-rank table (the default with a single --model); without it, one line per"
      + " counterexample under the table.")
  boolean verbose;

  @Option(names = "--width", paramLabel = "COLS", hidden = true, defaultValue = "120")
  int width;

  /** Where each counterexample goes after the text report (a report writer can replace it). */
  private Counterexamples counterexamples = Counterexamples.NONE;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      Workspace workspace = Workspace.fromRoot().with(modelsDir, specDir);
      checkPaths(workspace);
      if (workers != null && workers < 1) {
        throw new BadInputException("--workers must be at least 1 (got " + workers + ")");
      }
      if (timeLimit != null && timeLimit < 1) {
        throw new BadInputException("--time-limit must be at least 1 second (got " + timeLimit + ")");
      }
      if (width < 60) {
        throw new BadInputException("--width must be at least 60");
      }
      boolean adhoc = dp != null || cp != null || tp != null || pp != null || version != null
          || policy != null || storage != null || requests != null;
      TlcSearch search = searchOptions.search(adhoc);
      if (adhoc && (catalogue || !models.isEmpty() || tier != null || record || list)) {
        throw new BadInputException("an ad-hoc model (--dp/--cp/--tp/--version...) cannot be combined with"
            + " --catalogue, --model, --tier, --record or --list");
      }
      if (jobs != null && jobs < 1) {
        throw new BadInputException("--jobs must be at least 1 (got " + jobs + ")");
      }
      if (adhoc && jobs != null) {
        throw new BadInputException("--jobs runs catalogue models side by side; an ad-hoc model is one model");
      }
      if (replay != null) {
        if (adhoc || catalogue || !models.isEmpty() || tier != null || record || list) {
          throw new BadInputException("--replay runs one catalogue model alone (no other model or tier options)");
        }
        if (!(search instanceof TlcSearch.Exhaustive)) {
          throw new BadInputException("--replay runs the catalogue's recorded counterexample; --distributed and"
              + " --simulate do not apply");
        }
        return new ReplayRun(out, err).run(workspace, Catalogue.load(workspace.catalogue()), replay,
            checker(workspace, err, 1, false, search, null).onSlot());
      }
      SwimlaneReports pages = null;
      if (counterexamples == Counterexamples.NONE && !list) {
        pages = swimlanes(workspace); // the folder is checked here, before TLC runs
        SwimlaneReports writer = pages;
        counterexamples = (model, topology, result) -> {
          try {
            return writer.write(model, topology, result);
          } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot write the swimlane page of " + model, e);
          }
        };
      }
      if (record && !(search instanceof TlcSearch.Exhaustive)) {
        throw new BadInputException("--record writes the figures of exhaustive runs in one JVM: no --distributed");
      }
      if (exhaustive && !adhoc) {
        throw new BadInputException("--exhaustive qualifies an ad-hoc model (the catalogue is always exhaustive)");
      }
      if (list && record) {
        throw new BadInputException("--list runs nothing, so there is nothing to --record");
      }
      if (adhoc) {
        AdhocModel model = AdhocModel.of(orOne(dp), orOne(cp), orOne(tp), orOne(pp), version, policy, storage, requests);
        AdhocSearches searches = AdhocSearches.choose(model, search, exhaustive, err);
        int code = new AdhocRun(out, err, width, counterexamples, searches.safety(), searches.liveness())
            .run(model, checker(workspace, err, 1, false, searches.safety(), null, searches.liveness()));
        noPage(out, pages);
        return code;
      }
      Catalogue loaded = Catalogue.load(workspace.catalogue());
      List<ModelEntry> selected = models.isEmpty() ? loaded.tier(selectedTier()) : loaded.named(models);
      if (selected.isEmpty()) {
        throw new BadInputException("no models selected from " + workspace.catalogue());
      }
      if (list) {
        out.print(CatalogueRun.listing(selected));
        return 0;
      }
      // Recorded times are single-model times: --record runs one model at a time unless told otherwise.
      int defaultJobs = record ? 1 : Runtime.getRuntime().availableProcessors();
      int parallel = Math.min(jobs == null ? defaultJobs : jobs, selected.size());
      if (search instanceof TlcSearch.Distributed) {
        if (jobs != null && jobs > 1) {
          throw new BadInputException("--distributed checks one model at a time (its workers are the parallelism)");
        }
        parallel = 1;
        TlcSearchOptions.announce(err, search);
      }
      // One model named alone is read whole; a run of many is read as its table.
      boolean whole = verbose || models.size() == 1;
      CatalogueRun run = new CatalogueRun(out, err, width, catalogue, whole, counterexamples);
      int code;
      // --record measures each model in a JVM of its own: its recorded time is the one a lone run takes.
      boolean reuseJvms = !jvmPerModel && !record && search instanceof TlcSearch.Exhaustive;
      try (TlcJvmPool pool = reuseJvms ? new TlcJvmPool(parallel) : null) {
        code = run.run(selected, checker(workspace, err, parallel, !whole, search, pool), parallel);
      }
      noPage(out, pages);
      if (record) {
        int n = CatalogueRecorder.record(workspace.catalogue(), loaded, run.results());
        err.println("hicache-sync check: recorded the figures of " + n + " model(s) in " + workspace.catalogue());
      }
      return code;
    } catch (BadInputException e) {
      err.println("hicache-sync check: " + e.getMessage());
      return Main.EXIT_BAD_INPUT;
    } catch (java.io.UncheckedIOException e) {
      // The folder was checked before the run: a page that cannot be written now is the disk's doing.
      err.println("hicache-sync check: I/O failure during the run: " + e.getMessage() + " ("
          + OutputPaths.reason(e.getCause()) + ")");
      return Main.EXIT_IO_FAILED;
    } catch (IOException e) {
      err.println("hicache-sync check: " + e.getMessage());
      return Main.EXIT_TOOL_FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("hicache-sync check: interrupted; TLC was stopped");
      return Main.EXIT_TOOL_FAILED;
    } finally {
      err.flush();
      out.flush();
    }
  }

  /**
   * Checks the spec folder before TLC runs: a mistyped {@code --spec-dir} is bad input, not a verdict mismatch (the
   * report folder is checked by {@link #swimlanes}, also before TLC).
   */
  private void checkPaths(Workspace workspace) throws BadInputException {
    try {
      if (specDir != null) {
        OutputPaths.checkInputFolder("--spec-dir", specDir, ".tla");
      }
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage());
    }
  }

  private static Path defaultReports(Workspace workspace) {
    return workspace.work().getParent().resolve("reports");
  }

  private Tier selectedTier() throws BadInputException {
    if (tier == null) {
      return catalogue ? null : Tier.CI;
    }
    if (tier.equals("all")) {
      return null;
    }
    try {
      return Tier.parse(tier);
    } catch (IllegalArgumentException e) {
      throw new BadInputException("--tier must be ci, deep or all (got '" + tier + "')");
    }
  }

  /**
   * @param compact off a terminal, a progress line a minute and one per tenth of the models done, instead of
   *     one every 10 seconds
   * @param pool resident TLC JVMs to reuse, or null for a TLC JVM per run
   */
  private Checker checker(Workspace workspace, PrintWriter err, int parallelJobs, boolean compact, TlcSearch search,
      TlcJvmPool pool) throws BadInputException {
    return checker(workspace, err, parallelJobs, compact, search, pool, null);
  }

  /** As above, an ad-hoc model's liveness part searched as {@code liveness} (null: the checker's default). */
  private Checker checker(Workspace workspace, PrintWriter err, int parallelJobs, boolean compact, TlcSearch search,
      TlcJvmPool pool, TlcSearch liveness) throws BadInputException {
    boolean terminal = System.console() != null;
    ProgressReporter progress = compact ? new ProgressReporter(err, terminal, Duration.ofMinutes(1), true)
        : new ProgressReporter(err, terminal);
    int cores = Runtime.getRuntime().availableProcessors();
    // Models running side by side share the cores: by default each gets its share (at least one).
    int n = workers != null ? workers : WorkerChoice.defaultWorkers(cores, parallelJobs);
    Path jar = TlcJar.locate();
    Duration limit = timeLimit == null ? null : Duration.ofSeconds(timeLimit);
    List<String> jvm = tlcJvmOptions();
    return new Checker(listener -> new ModelChecker(workspace, new TlcRunner(jar, listener, pool), n, limit, jvm, search,
        liveness), progress);
  }

  /** Extra options for TLC's JVM from {@code HICACHE_TLC_JAVA_OPTS} (e.g. {@code -Xmx4g}). */
  private static List<String> tlcJvmOptions() {
    return TlcSearchOptions.jvmOptions("HICACHE_TLC_JAVA_OPTS");
  }

  private static int orOne(Integer size) {
    return size == null ? 1 : size;
  }

  /**
   * Every counterexample's swimlane page ({@code --report DIR}, by default {@code modelcheck/target/reports}),
   * named under its text table; the folder is checked now, so that a bad one stops the command before TLC.
   */
  private SwimlaneReports swimlanes(Workspace workspace) throws BadInputException {
    ReportDirectory dir;
    try {
      dir = ReportDirectory.checked("--report", reportDir != null ? reportDir : defaultReports(workspace));
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage());
    }
    Map<String, ModelEntry> byName = new HashMap<>();
    try {
      Catalogue.load(workspace.catalogue()).models().forEach(m -> byName.put(m.name(), m));
    } catch (BadInputException e) {
      // an ad-hoc run needs no catalogue; its pages go without the catalogue's bug and reference
    }
    return new SwimlaneReports(dir, workspace, byName);
  }

  /** After a run with {@code --report}: says so when no model produced a counterexample, so no page was written. */
  private void noPage(PrintWriter out, SwimlaneReports pages) {
    if (pages != null && reportDir != null && pages.written() == 0) {
      out.println("swimlanes: no page written to " + pages.directory().dir()
          + ": no model produced a counterexample");
    }
  }

  /** Makes model checkers reporting to one progress display (one checker per parallel job). */
  record Checker(Function<ProgressListener, ModelChecker> checkers, ProgressReporter progress) {

    /** A checker reporting to its own slot of the display: runs on other slots may overlap. */
    ModelChecker onSlot() {
      return checkers.apply(progress.slot());
    }

    AdhocResult check(AdhocModel model) throws BadInputException, IOException, InterruptedException {
      return checkers.apply(progress).check(model);
    }
  }
}
