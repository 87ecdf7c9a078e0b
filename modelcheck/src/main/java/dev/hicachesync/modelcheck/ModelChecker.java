package dev.hicachesync.modelcheck;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Checks catalogue and ad-hoc models with TLC in a {@link Workspace}. */
public final class ModelChecker {

  /** Time limit when neither the caller nor the catalogue gives one: 1 h. */
  public static final Duration DEFAULT_LIMIT = Duration.ofHours(1);
  /** A catalogue model may take this many times its recorded time before it is stopped. */
  static final int RECORDED_SLACK = 10;
  /**
   * An ad-hoc model's liveness budget when the caller gives none: 10 min. Liveness runs only
   * after safety held, and a model whose liveness does not finish in that time is reported as
   * cut (never as holding); {@code --time-limit} raises it.
   */
  public static final Duration ADHOC_LIVENESS_LIMIT = Duration.ofMinutes(10);

  private final Workspace workspace;
  private final TlcRunner runner;
  private final int workers;
  private final Duration timeLimit;
  private final List<String> jvmOptions;
  private final TlcSearch search;
  private final TlcSearch liveness;

  /**
   * A checker searching exhaustively in one TLC JVM.
   *
   * @param workers TLC workers for safety-only models (liveness models always get one)
   * @param timeLimit per-model limit, or null for the default (see {@link #limitFor})
   * @param jvmOptions extra options for TLC's JVM
   */
  public ModelChecker(Workspace workspace, TlcRunner runner, int workers, Duration timeLimit, List<String> jvmOptions) {
    this(workspace, runner, workers, timeLimit, jvmOptions, TlcSearch.EXHAUSTIVE);
  }

  /**
   * A checker whose invariant checks search as {@code search}: TLC's distributed mode for the catalogue's
   * safety models that hold and an ad-hoc model's safety part (temporal properties, and the models
   * expected to fail, whose shortest counterexample the catalogue records, run in one JVM); a simulation
   * for an ad-hoc model's safety part only.
   */
  public ModelChecker(Workspace workspace, TlcRunner runner, int workers, Duration timeLimit, List<String> jvmOptions,
      TlcSearch search) {
    this(workspace, runner, workers, timeLimit, jvmOptions, search, null);
  }

  /**
   * As above, with an ad-hoc model's liveness part searched as {@code liveness}; null: as its safety part where
   * that is a simulation, else exhaustively. (The caller simulates it where the model is reduced for safety: its
   * plain state space, which liveness needs whole, does not fit a check of about a minute.)
   */
  public ModelChecker(Workspace workspace, TlcRunner runner, int workers, Duration timeLimit, List<String> jvmOptions,
      TlcSearch search, TlcSearch liveness) {
    this.workspace = workspace;
    this.runner = runner;
    this.workers = workers;
    this.timeLimit = timeLimit;
    this.jvmOptions = List.copyOf(jvmOptions);
    this.search = search;
    this.liveness = liveness != null ? liveness
        : search instanceof TlcSearch.Simulation ? search : TlcSearch.EXHAUSTIVE;
  }

  /** How an ad-hoc model's liveness part searches when it runs. */
  public TlcSearch livenessSearch() {
    return liveness;
  }

  /** How this checker's invariant checks search. */
  public TlcSearch search() {
    return search;
  }

  /** Runs {@code job} as it is: a module and cfg a caller generated (a replay's trace recovery). */
  public TlcResult run(TlcJob job) throws BadInputException, IOException, InterruptedException {
    return runner.run(job);
  }

  /** Runs one catalogue model. */
  public TlcResult check(ModelEntry model) throws BadInputException, IOException, InterruptedException {
    TlcJob job = jobFor(model);
    return nameTheViolatedProperty(job, runner.run(job));
  }

  /**
   * The TLC job of a catalogue model: its JIT choice ({@link JitChoice}) ahead of the caller's
   * JVM options, and one worker where the model checks liveness or expects a counterexample.
   */
  TlcJob jobFor(ModelEntry model) {
    Path cfg = workspace.models().resolve(model.cfg());
    List<String> options = new ArrayList<>(JitChoice.optionsFor(model));
    options.addAll(jvmOptions);
    // Liveness: several workers are unsound (the runner also forces one for a cfg with PROPERTY).
    // Expected counterexamples: one worker keeps TLC's search strictly breadth-first, so the
    // trace it prints is a shortest one (the catalogue reports its length).
    boolean oneWorker = model.hasLiveness() || model.expectedVerdict().isViolation();
    int jobWorkers = oneWorker ? 1 : workers;
    TlcSearch jobSearch = search instanceof TlcSearch.Distributed && !oneWorker ? search : TlcSearch.EXHAUSTIVE;
    return new TlcJob(model.name(), model.module(), cfg, List.of(workspace.spec(), workspace.models()),
        workspace.work(), jobWorkers, limitFor(model), options, jobSearch);
  }

  /**
   * Writes the ad-hoc model's cfg from its module's template and checks it in two parts: the
   * invariants first (no temporal properties, the workers asked for), then, only if they hold on
   * the whole state space, the temporal properties with one worker. Liveness checking can take
   * orders of magnitude longer than safety on the same states (TLC builds the behaviour graph and
   * its strongly connected components), so a safety verdict must not wait for it.
   */
  public AdhocResult check(AdhocModel model) throws BadInputException, IOException, InterruptedException {
    Path template = workspace.adhocTemplate(model.module());
    if (!Files.isRegularFile(template)) {
      throw new BadInputException("ad-hoc model template not found: " + template);
    }
    Files.createDirectories(workspace.work());
    Path rendered = workspace.work().resolve(model.name() + ".cfg");
    Files.writeString(rendered, model.render(Files.readString(template)));
    CfgFile cfg = CfgFile.read(rendered);
    List<String> safetyChecks = new ArrayList<>(cfg.invariants());
    if (cfg.checkDeadlock()) {
      safetyChecks.add("deadlock");
    }
    Path safetyCfg = workspace.work().resolve(model.name() + "-safety.cfg");
    CfgFile safetyOnly = cfg.without(CfgFile.Section.PROPERTIES);
    String safetyModule = model.module().mcModule();
    if (!(search instanceof TlcSearch.Simulation)) {
      // The catalogue's reductions, sound for the invariants of a model with equal pools and no knob
      // (docs/explanation/spec-design.md); a simulation draws behaviours of Spec itself.
      boolean reduced = model.reduced();
      safetyOnly = safetyOnly.withSpecification(reduced ? CfgFile.REDUCED_SPEC : safetyOnly.specification(),
          model.module().safetyView(reduced));
      safetyModule = model.module().safetyModule(reduced);
    }
    Files.writeString(safetyCfg, safetyOnly.render());
    TlcJob safetyJob = job(model.name() + "-safety", safetyModule, safetyCfg,
        timeLimit == null ? DEFAULT_LIMIT : timeLimit).with(search);
    int safetyWorkers = search instanceof TlcSearch.Simulation ? 1
        : search instanceof TlcSearch.Distributed d ? d.localWorkers() : Math.max(1, workers);
    AdhocPart safety = AdhocPart.ran(AdhocPart.Part.SAFETY, safetyChecks, safetyWorkers, runner.run(safetyJob));

    AdhocPart liveness;
    if (!cfg.hasProperties()) {
      liveness = AdhocPart.notRun(AdhocPart.Part.LIVENESS, List.of(), "the template has no temporal properties");
    } else if (safety.status() == AdhocPart.Status.SAMPLED) {
      // TLC checks the temporal properties on each random behaviour too (its lassos and its end, under the
      // spec's fairness): a violation found is a real behaviour; none found proves nothing, as for safety.
      liveness = livenessPart(model, cfg);
    } else if (safety.status() != AdhocPart.Status.EXHAUSTIVE) {
      liveness = AdhocPart.notRun(AdhocPart.Part.LIVENESS, cfg.properties(),
          safety.status() == AdhocPart.Status.VIOLATED ? "safety is violated"
              : "safety did not finish (liveness explores the same states, and more)");
    } else {
      liveness = livenessPart(model, cfg);
    }
    return new AdhocResult(List.of(safety, liveness));
  }

  /** The temporal properties of the ad-hoc model's {@code cfg}, searched as {@link #livenessSearch}, one worker. */
  private AdhocPart livenessPart(AdhocModel model, CfgFile cfg)
      throws BadInputException, IOException, InterruptedException {
    Path livenessCfg = workspace.work().resolve(model.name() + "-liveness.cfg");
    // The invariants were checked in the safety part: checking them again would only cost time. A SYMMETRY
    // set or a VIEW (sound for the invariants) goes too: TLC's liveness checking is unsound under it.
    Files.writeString(livenessCfg,
        cfg.without(CfgFile.Section.INVARIANTS, CfgFile.Section.SYMMETRY, CfgFile.Section.VIEW).render());
    TlcJob livenessJob = job(model.name() + "-liveness", model.module().mcModule(), livenessCfg,
        timeLimit == null ? ADHOC_LIVENESS_LIMIT : timeLimit).with(this.liveness);
    return AdhocPart.ran(AdhocPart.Part.LIVENESS, cfg.properties(), 1,
        nameTheViolatedProperty(livenessJob, runner.run(livenessJob)));
  }

  /**
   * When TLC reports "Temporal properties were violated" for a cfg with several properties it
   * does not say which; this checks them one at a time (a cfg per property) until one fails and
   * returns that run, whose verdict names the property and whose trace belongs to it. The time
   * reported is the total.
   */
  private TlcResult nameTheViolatedProperty(TlcJob job, TlcResult result)
      throws BadInputException, IOException, InterruptedException {
    CfgFile cfg = CfgFile.read(job.cfg());
    List<String> properties = cfg.properties();
    if (result.exitCode() != 13 || properties.size() < 2 || !result.verdict().property().contains(", ")) {
      return result;
    }
    double seconds = result.seconds();
    for (String property : properties) {
      Path single = job.workRoot().resolve(job.name() + "-" + property + ".cfg");
      Files.writeString(single, cfg.withOnlyProperty(property).render());
      TlcResult r = runner.run(new TlcJob(job.name() + "-" + property, job.module(), single, job.sourceDirs(),
          job.workRoot(), 1, job.timeLimit(), job.jvmOptions(), job.search()));
      seconds += r.seconds();
      if (r.exitCode() == 13) {
        return new TlcResult(r.exitCode(), r.verdict(), r.distinct(), r.generated(), r.depth(), seconds,
            r.trace(), r.message(), r.log(), r.output());
      }
    }
    return result;
  }

  /** The caller's limit, else ten times the recorded time (at least 2 min), else one hour. */
  Duration limitFor(ModelEntry model) {
    if (timeLimit != null) {
      return timeLimit;
    }
    if (model.recorded() != null && model.recorded().seconds() > 0) {
      return Duration.ofSeconds(Math.max(120, Math.round(RECORDED_SLACK * model.recorded().seconds())));
    }
    return DEFAULT_LIMIT;
  }

  private TlcJob job(String name, String module, Path cfg, Duration limit) {
    return new TlcJob(name, module, cfg, List.of(workspace.spec(), workspace.models()), workspace.work(),
        workers, limit, jvmOptions);
  }
}
