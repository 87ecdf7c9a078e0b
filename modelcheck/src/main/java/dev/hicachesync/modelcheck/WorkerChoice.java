package dev.hicachesync.modelcheck;

/**
 * How many TLC workers a model gets when the caller does not say ({@code check} without
 * {@code --workers}).
 *
 * <p>Models checked side by side share the cores: each of {@code jobs} parallel TLC JVMs gets
 * {@code cores / jobs} workers, at least one and at most {@link #MAX_DEFAULT}, so that
 * {@code jobs x workers <= cores} whenever {@code jobs <= cores}. A single model on a 2-core
 * machine ({@code check --model X}) gets both cores (docs/explanation/spec-design.md, "Workers"). The cap:
 * TLC's workers share one fingerprint set and one state queue, and the catalogue's models are
 * small; more than two was not measured.
 *
 * <p>This is only the default: {@link ModelChecker#jobFor} still gives one worker to a model
 * that checks liveness (several are unsound there) or expects a counterexample (one worker keeps
 * the search breadth-first, so the reported trace is a shortest one).
 */
public final class WorkerChoice {

  /** The most workers a model gets by default. */
  static final int MAX_DEFAULT = 2;

  private WorkerChoice() {}

  /** The default workers per model for {@code jobs} models at once on {@code cores} cores. */
  public static int defaultWorkers(int cores, int jobs) {
    return Math.max(1, Math.min(MAX_DEFAULT, cores / Math.max(1, jobs)));
  }
}
