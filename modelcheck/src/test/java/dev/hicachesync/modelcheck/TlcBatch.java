package dev.hicachesync.modelcheck;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs a test's independent TLC jobs as many at a time as there are cores, up to two, and returns their
 * results in the order given.
 *
 * <p>Why: each job is a child JVM with one TLC worker, so one at a time leaves CI's second core idle; the
 * reduction tests run 30-odd small models each (CI took 1,176 s of its 20-minute budget on 1 Dec 2026).
 * Two, not more: CI has two cores, and a job's JVM start-up is itself multi-threaded. Jobs must have
 * distinct names (each runs in its own {@link TlcJob#runDir()}).
 */
final class TlcBatch {
  static final int JOBS = Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));

  /**
   * Resident TLC JVMs that the tests' runs share, as a catalogue run's do ({@link ResidentTlcTest}: the same results
   * as a JVM per run); a JVM per run would start about 200 TLC JVMs in these tests. They end with the test JVM.
   */
  static final TlcJvmPool RESIDENT = new TlcJvmPool(JOBS);

  private TlcBatch() {}

  /**
   * A batch job's JVM options: the row's {@link JitChoice} (C1 only for a small model: speed only, the
   * same states), then a heap small enough for two jobs beside the test JVM.
   */
  static List<String> jvmOptions(List<String> jit) {
    List<String> options = new ArrayList<>(jit);
    options.add("-Xmx768m");
    return options;
  }

  /** Every run's result, in order; the first failure (in that order) is rethrown after all finished. */
  static <T> List<T> all(List<Callable<T>> runs) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(JOBS);
    try {
      List<Future<T>> futures = pool.invokeAll(runs);
      List<T> out = new ArrayList<>();
      for (Future<T> f : futures) {
        try {
          out.add(f.get());
        } catch (ExecutionException e) {
          if (e.getCause() instanceof Exception cause) {
            throw cause;
          }
          throw e;
        }
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }
}
