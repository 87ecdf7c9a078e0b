package dev.hicachesync.testing;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;

/**
 * Sizes and helpers shared by the {@code *LincheckTest} classes: one place for the knobs, so that
 * a longer exploration is one flag away and CI stays fast.
 *
 * <p>Flags (system properties; fast defaults suit 2 shared cores):
 * <ul>
 *   <li>{@code -Dhicache.lincheck.iterations=N} scenarios per check (default 4);
 *   <li>{@code -Dhicache.lincheck.invocations=N} interleavings (model checking) or runs (stress) per
 *       scenario (default 60);
 *   <li>{@code -Dhicache.lincheck.broken.iterations=N} scenarios a broken twin is given to be rejected in
 *       (default 30; the search stops at the first failure, so a working check costs little).
 * </ul>
 * Longer run: {@code mvn -pl impl surefire:test@lincheck -Dhicache.lincheck.iterations=100
 * -Dhicache.lincheck.invocations=5000}.
 */
public final class LincheckRuns {
  /** Scenarios per check. */
  public static final int ITERATIONS = Integer.getInteger("hicache.lincheck.iterations", 4);
  /** Interleavings or runs per scenario. */
  public static final int INVOCATIONS = Integer.getInteger("hicache.lincheck.invocations", 60);
  /** Scenarios a broken twin gets to be caught in. */
  public static final int BROKEN_ITERATIONS = Integer.getInteger("hicache.lincheck.broken.iterations", 30);

  private LincheckRuns() {}

  /** Model checking with the configured sizes; {@code threads} × {@code actorsPerThread} parallel part. */
  public static ModelCheckingOptions modelChecking(int threads, int actorsPerThread) {
    return new ModelCheckingOptions().iterations(ITERATIONS).invocationsPerIteration(INVOCATIONS)
        .threads(threads).actorsPerThread(actorsPerThread);
  }

  /**
   * {@link #modelChecking(int, int)} against {@code spec}, a sequential model written apart from the
   * implementation (same operation names and parameters): without one Lincheck runs the tested object
   * itself sequentially, and an implementation that is its own specification cannot be wrong.
   */
  public static ModelCheckingOptions modelChecking(int threads, int actorsPerThread, Class<?> spec) {
    return modelChecking(threads, actorsPerThread).sequentialSpecification(spec);
  }

  /** {@link #stress(int, int)} against the sequential model {@code spec}. */
  public static StressOptions stress(int threads, int actorsPerThread, Class<?> spec) {
    return stress(threads, actorsPerThread).sequentialSpecification(spec);
  }

  /** {@link #modelCheckingBroken(int, int)} against the sequential model {@code spec}. */
  public static ModelCheckingOptions modelCheckingBroken(int threads, int actorsPerThread, Class<?> spec) {
    return modelCheckingBroken(threads, actorsPerThread).sequentialSpecification(spec);
  }

  /** Stress run with the configured sizes. */
  public static StressOptions stress(int threads, int actorsPerThread) {
    return new StressOptions().iterations(ITERATIONS).invocationsPerIteration(INVOCATIONS)
        .threads(threads).actorsPerThread(actorsPerThread);
  }

  /**
   * Model checking sized for a broken twin: more scenarios, so that the rejection is certain, and no
   * minimisation of the failing scenario (it costs more than finding it; the report is not needed).
   */
  public static ModelCheckingOptions modelCheckingBroken(int threads, int actorsPerThread) {
    return new ModelCheckingOptions().iterations(BROKEN_ITERATIONS).invocationsPerIteration(INVOCATIONS)
        .threads(threads).actorsPerThread(actorsPerThread).minimizeFailedScenario(false);
  }

  /**
   * Runs {@code check} and asserts that Lincheck rejected the implementation, so the check is known to
   * bite; returns the report. {@code expected} is a fragment the report must contain (e.g.
   * {@code "Invalid execution results"} or {@code "deadlock"}), or null for any rejection.
   */
  public static String assertRejected(Runnable check, String expected) {
    LincheckAssertionError caught = null;
    try {
      check.run();
    } catch (LincheckAssertionError e) {
      caught = e;
    }
    assertNotNull(caught, "Lincheck accepted a deliberately broken implementation: the check does not bite");
    String report = String.valueOf(caught.getMessage());
    // The head of the report (what was violated, the scenario) goes to the log: proof of what bit.
    String[] lines = report.strip().split("\n");
    System.out.println("Lincheck rejected the broken twin as expected:\n  "
        + String.join("\n  ", java.util.Arrays.asList(lines).subList(0, Math.min(lines.length, 12))));
    if (expected != null) {
      assertTrue(report.toLowerCase(java.util.Locale.ROOT).contains(expected.toLowerCase(java.util.Locale.ROOT)),
          "Lincheck rejected the broken twin, but not for the expected reason '" + expected + "':\n" + report);
    }
    return report;
  }
}
