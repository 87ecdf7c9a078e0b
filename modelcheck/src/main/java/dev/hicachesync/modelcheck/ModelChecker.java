package dev.hicachesync.modelcheck;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Checks catalogue and ad-hoc models with TLC in a {@link Workspace}. */
public final class ModelChecker {

  /** Time limit when neither the caller nor the catalogue gives one: 1 h. */
  public static final Duration DEFAULT_LIMIT = Duration.ofHours(1);
  /** A catalogue model may take this many times its recorded time before it is stopped. */
  static final int RECORDED_SLACK = 10;

  private final Workspace workspace;
  private final TlcRunner runner;
  private final int workers;
  private final Duration timeLimit;
  private final List<String> jvmOptions;

  /**
   * A checker.
   *
   * @param workers TLC workers for safety-only models (liveness models always get one)
   * @param timeLimit per-model limit, or null for the default (see {@link #limitFor})
   * @param jvmOptions extra options for TLC's JVM
   */
  public ModelChecker(Workspace workspace, TlcRunner runner, int workers, Duration timeLimit, List<String> jvmOptions) {
    this.workspace = workspace;
    this.runner = runner;
    this.workers = workers;
    this.timeLimit = timeLimit;
    this.jvmOptions = List.copyOf(jvmOptions);
  }

  /** Runs one catalogue model. */
  public TlcResult check(ModelEntry model) throws BadInputException, IOException, InterruptedException {
    Path cfg = workspace.models().resolve(model.cfg());
    TlcJob job = job(model.name(), model.module(), cfg, limitFor(model));
    if (model.hasLiveness() || model.expectedVerdict().isViolation()) {
      // Liveness: several workers are unsound (the runner also forces one for a cfg with PROPERTY).
      // Expected counterexamples: one worker keeps TLC's search strictly breadth-first, so the
      // trace it prints is a shortest one (the catalogue reports its length).
      job = new TlcJob(job.name(), job.module(), job.cfg(), job.sourceDirs(), job.workRoot(), 1,
          job.timeLimit(), job.jvmOptions());
    }
    return nameTheViolatedProperty(job, runner.run(job));
  }

  /** Writes the ad-hoc model's cfg from the template and runs it. */
  public TlcResult check(AdhocModel model) throws BadInputException, IOException, InterruptedException {
    Path template = workspace.adhocTemplate();
    if (!Files.isRegularFile(template)) {
      throw new BadInputException("ad-hoc model template not found: " + template);
    }
    Files.createDirectories(workspace.work());
    Path cfg = workspace.work().resolve(model.name() + ".cfg");
    Files.writeString(cfg, model.render(Files.readString(template)));
    TlcJob job = job(model.name(), AdhocModel.MODULE, cfg, timeLimit == null ? DEFAULT_LIMIT : timeLimit);
    return nameTheViolatedProperty(job, runner.run(job));
  }

  /**
   * When TLC reports "Temporal properties were violated" for a cfg with several properties it
   * does not say which; this checks them one at a time (a cfg per property) until one fails and
   * returns that run, whose verdict names the property and whose trace belongs to it. The time
   * reported is the total.
   */
  private TlcResult nameTheViolatedProperty(TlcJob job, TlcResult result)
      throws BadInputException, IOException, InterruptedException {
    String text = Files.readString(job.cfg());
    List<String> properties = CfgFile.parse(text).properties();
    if (result.exitCode() != 13 || properties.size() < 2 || !result.verdict().property().contains(", ")) {
      return result;
    }
    double seconds = result.seconds();
    for (String property : properties) {
      Path single = job.workRoot().resolve(job.name() + "-" + property + ".cfg");
      Files.writeString(single, CfgFile.withOnlyProperty(text, property));
      TlcResult r = runner.run(new TlcJob(job.name() + "-" + property, job.module(), single, job.sourceDirs(),
          job.workRoot(), 1, job.timeLimit(), job.jvmOptions()));
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
