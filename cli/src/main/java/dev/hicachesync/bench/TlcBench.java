package dev.hicachesync.bench;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.Catalogue;
import dev.hicachesync.modelcheck.JitChoice;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.ProgressListener;
import dev.hicachesync.modelcheck.TlcJar;
import dev.hicachesync.modelcheck.TlcJob;
import dev.hicachesync.modelcheck.TlcJvmPool;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.TlcRunner;
import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.Workspace;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;

/**
 * TLC's cost per distinct state on a catalogue model against a small reference spec
 * ({@code bench/BenchReference.tla}: three counters, 125,000 states) run by the same TLC jar, one worker
 * each, in two rows:
 * <ul>
 *   <li>wall time of the TLC process, JVM start included, as {@code check} reports it, per distinct state;
 *   <li>the same beyond start-up: each spec is run a second time stopped after its initial states (a
 *       constraint that only they satisfy, {@link #STARTUP_CONSTRAINT}), and that run's wall time (the JVM,
 *       SANY's parse, TLC's set-up, the initial states) is taken off the whole run's before dividing by the
 *       states found after the initial ones. A catalogue model of a few thousand states is mostly start-up,
 *       which the reference's 125,000 states hide; this row compares what each state costs.
 *   <li>the way {@code check} runs catalogue models, in a resident TLC JVM ({@code TlcJvmPool}): each spec
 *       is run twice in one JVM and the second run's wall time is divided by its distinct states. Start-up
 *       is then SANY's parse and TLC's set-up only, and the JIT has compiled TLC's evaluator in the first run.
 * </ul>
 */
final class TlcBench {
  static final String REFERENCE = "BenchReference";
  static final Duration LIMIT = Duration.ofMinutes(10);

  private TlcBench() {}

  /** The constraint of the start-up runs: false beyond the initial states, whose successors TLC then drops. */
  static final String STARTUP_CONSTRAINT = "BenchStartupOnly";

  /** A spec the bench runs: its jobs' name, root module, cfg, source folders and JVM options. */
  private record BenchSpec(String name, String module, Path cfg, List<Path> sources, List<String> jvm) {
    TlcJob job(Workspace ws, String suffix) {
      return new TlcJob(name + suffix, module, cfg, sources, ws.work(), 1, LIMIT, jvm);
    }

    TlcJob startup(Workspace ws) throws IOException {
      return startupJob(ws, name + "-startup", module, cfg, sources, jvm);
    }
  }

  static List<BenchRow> run(Workspace ws, String modelName) throws Exception {
    ModelEntry model = Catalogue.load(ws.catalogue()).named(List.of(modelName)).get(0);
    TlcRunner runner = new TlcRunner(TlcJar.locate(), ProgressListener.NONE);
    List<String> jvm = List.of("-Xmx2g");
    Path refDir = Files.createDirectories(ws.work().resolve("bench-reference-src"));
    copyResource(REFERENCE + ".tla", refDir);
    Path refCfg = copyResource(REFERENCE + ".cfg", refDir);
    BenchSpec reference = new BenchSpec("bench-reference", REFERENCE, refCfg, List.of(refDir), jvm);
    // The model runs with the JIT choice `check` gives it (C1 only below a recorded size), so that the row
    // is what `check` pays; the reference, 125,000 states, with the JVM's default.
    List<String> modelJvm = new java.util.ArrayList<>(JitChoice.optionsFor(model));
    modelJvm.addAll(jvm);
    BenchSpec catalogue = new BenchSpec("bench-" + model.name(), model.module(), ws.models().resolve(model.cfg()),
        List.of(ws.spec(), ws.models()), modelJvm);
    TlcResult ref = runner.run(reference.job(ws, ""));
    TlcResult cat = runner.run(catalogue.job(ws, ""));
    check(ref, REFERENCE);
    check(cat, model.name());
    TlcResult refStart = runner.run(reference.startup(ws));
    TlcResult catStart = runner.run(catalogue.startup(ws));
    checkStartup(refStart, REFERENCE);
    checkStartup(catStart, model.name());
    BenchRow wall = new BenchRow("TLC " + model.name() + " (" + sizeAndTime(cat) + ")", perState(cat),
        "TLC reference spec (" + sizeAndTime(ref) + ")", perState(ref), "distinct state", "");
    BenchRow beyond = new BenchRow("TLC " + model.name() + " beyond start-up (" + fmt(catStart.seconds()) + " s)",
        beyondStartup(cat, catStart), "TLC reference spec beyond start-up (" + fmt(refStart.seconds()) + " s)",
        beyondStartup(ref, refStart), "distinct state", "");
    return List.of(wall, beyond, residentRow(ws, reference, catalogue, model.name()));
  }

  /** The third row: each spec's second run in a resident TLC JVM of its own (the first warms it). */
  private static BenchRow residentRow(Workspace ws, BenchSpec reference, BenchSpec catalogue, String modelName)
      throws Exception {
    try (TlcJvmPool pool = new TlcJvmPool(1)) {
      TlcRunner runner = new TlcRunner(TlcJar.locate(), ProgressListener.NONE, pool);
      TlcResult ref = secondRun(ws, runner, reference, REFERENCE);
      TlcResult cat = secondRun(ws, runner, catalogue, modelName);
      return new BenchRow("TLC " + modelName + " in a resident JVM, second run (" + sizeAndTime(cat) + ")",
          perState(cat), "TLC reference spec in a resident JVM, second run (" + sizeAndTime(ref) + ")", perState(ref),
          "distinct state", "");
    }
  }

  /** Runs {@code spec} twice through {@code runner} (one resident JVM) and returns the second run. */
  private static TlcResult secondRun(Workspace ws, TlcRunner runner, BenchSpec spec, String what) throws Exception {
    TlcResult result = null;
    for (int run = 0; run < 2; run++) {
      result = runner.run(spec.job(ws, "-resident"));
      check(result, what + " (resident JVM)");
    }
    return result;
  }

  /** Nanoseconds of the whole run per distinct state. */
  private static double perState(TlcResult r) {
    return r.seconds() * 1e9 / r.distinct();
  }

  private static String sizeAndTime(TlcResult r) {
    return r.distinct() + " states, " + fmt(r.seconds()) + " s";
  }

  /**
   * Nanoseconds per state found after the initial ones, start-up taken off. Floored at one nanosecond: a
   * model so small that the two runs' noise exceeds its whole search has no meaningful figure, and a
   * negative one would read as a speed-up.
   */
  static double beyondStartup(TlcResult whole, TlcResult startup) {
    long states = Math.max(1, whole.distinct() - startup.distinct());
    return Math.max(1, (whole.seconds() - startup.seconds()) * 1e9 / states);
  }

  /**
   * The job that runs {@code module} with {@code cfg} and {@link #STARTUP_CONSTRAINT} added: a wrapper module
   * that extends it defines the constraint (a cfg cannot define an operator), the cfg names it.
   */
  static TlcJob startupJob(Workspace ws, String name, String module, Path cfg, List<Path> sources,
      List<String> jvm) throws IOException {
    Path dir = Files.createDirectories(ws.work().resolve(name + "-src"));
    String wrapper = "BenchStartup";
    Files.writeString(dir.resolve(wrapper + ".tla"), "---- MODULE " + wrapper + " ----\nEXTENDS " + module
        + ", TLC\n" + STARTUP_CONSTRAINT + " == TLCGet(\"level\") < 1\n====\n");
    Path startupCfg = dir.resolve(cfg.getFileName());
    Files.writeString(startupCfg, Files.readString(cfg) + "\nCONSTRAINT " + STARTUP_CONSTRAINT + "\n");
    List<Path> all = new java.util.ArrayList<>(sources);
    all.add(dir);
    return new TlcJob(name, wrapper, startupCfg, all, ws.work(), 1, LIMIT, jvm);
  }

  private static void check(TlcResult r, String what) throws BadInputException {
    if (!Verdict.HOLDS.equals(r.verdict()) || r.distinct() <= 0) {
      throw new BadInputException("TLC on " + what + " did not finish cleanly (" + r.verdict() + "): "
          + r.message() + "; log " + r.log());
    }
  }

  /**
   * A start-up run found the initial states and stopped. Its verdict is not the model's: a liveness property
   * can fail on the cut graph (the behaviour stops at an initial state), so only TLC errors are refused.
   */
  private static void checkStartup(TlcResult r, String what) throws BadInputException {
    Verdict.Kind kind = r.verdict().kind();
    if (r.distinct() <= 0 || kind != Verdict.Kind.HOLDS && kind != Verdict.Kind.VIOLATES) {
      throw new BadInputException("TLC on " + what + " stopped after its initial states did not finish cleanly ("
          + r.verdict() + "): " + r.message() + "; log " + r.log());
    }
  }

  private static Path copyResource(String name, Path dir) throws IOException {
    Path target = dir.resolve(name);
    try (InputStream in = TlcBench.class.getResourceAsStream("/bench/" + name)) {
      if (in == null) {
        throw new IOException("missing resource /bench/" + name);
      }
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
    }
    return target;
  }

  private static String fmt(double seconds) {
    return String.format(java.util.Locale.ROOT, "%.1f", seconds);
  }
}
