package dev.hicachesync.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * One JMH run of some benchmarks of a class, through JMH's Runner API with the iterations and forks of the
 * bench's {@link BenchSuite.Sizes} (overriding the classes' own annotations), and its results looked up by
 * method and parameters. Every score is in nanoseconds per operation; a figure is the median of the
 * measurement iterations, so that a burst of outside load in one iteration does not move it.
 */
final class JmhRun {

  /** How a class is run: timed iterations (a fixed time each) or single runs of the whole operation. */
  enum Kind { TIMED, SINGLE_SHOT }

  private final Collection<RunResult> results;

  private JmhRun(Collection<RunResult> results) {
    this.results = results;
  }

  /**
   * Runs the benchmark methods {@code methods} of {@code benchmark} (all if empty) for every combination of
   * {@code params}.
   */
  static JmhRun of(BenchSuite.Sizes sizes, Kind kind, Class<?> benchmark, List<String> methods,
      Map<String, List<String>> params) throws RunnerException {
    String names = methods.isEmpty() ? "[^.]+" : "(" + String.join("|", methods) + ")";
    ChainedOptionsBuilder options = new OptionsBuilder()
        .include("^" + Pattern.quote(benchmark.getName()) + "\\." + names + "$")
        .forks(sizes.forks())
        .timeUnit(TimeUnit.NANOSECONDS)
        .verbosity(VerboseMode.SILENT)
        .shouldFailOnError(true);
    if (kind == Kind.TIMED) {
      options.warmupIterations(sizes.warmupIterations())
          .warmupTime(TimeValue.milliseconds(sizes.warmupMillis()))
          .measurementIterations(sizes.iterations())
          .measurementTime(TimeValue.milliseconds(sizes.iterationMillis()));
    } else {
      options.warmupIterations(sizes.singleShotWarmups()).measurementIterations(sizes.singleShots());
    }
    params.forEach((name, values) -> options.param(name, values.toArray(String[]::new)));
    Collection<RunResult> run = new Runner(options.build()).run();
    if (run.isEmpty()) {
      throw new IllegalStateException("JMH ran nothing of " + benchmark.getName() + " (no META-INF/BenchmarkList?)");
    }
    return new JmhRun(run);
  }

  /** Parameters as name, value, name, value... */
  static Map<String, List<String>> params(Object... nameValues) {
    Map<String, List<String>> m = new LinkedHashMap<>();
    for (int i = 0; i < nameValues.length; i += 2) {
      List<String> values = new ArrayList<>();
      Object v = nameValues[i + 1];
      if (v instanceof Collection<?> c) {
        c.forEach(x -> values.add(String.valueOf(x)));
      } else {
        values.add(String.valueOf(v));
      }
      m.put((String) nameValues[i], values);
    }
    return m;
  }

  /**
   * The median nanoseconds per operation of {@code method} run with these parameters (name, value, ...;
   * parameters not named may have any value).
   */
  double nanos(String method, String... paramNameValues) {
    for (RunResult r : results) {
      String bench = r.getParams().getBenchmark();
      if (!bench.endsWith("." + method)) {
        continue;
      }
      boolean match = true;
      for (int i = 0; i < paramNameValues.length; i += 2) {
        match &= paramNameValues[i + 1].equals(r.getParams().getParam(paramNameValues[i]));
      }
      if (match) {
        return r.getPrimaryResult().getStatistics().getPercentile(50);
      }
    }
    throw new IllegalStateException("no JMH result for " + method + " " + List.of(paramNameValues));
  }
}
