package dev.hicachesync.cli;

import dev.hicachesync.bench.BenchSuite;
import dev.hicachesync.modelcheck.BadInputException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ./hicache-sync bench}: runs the project's JMH benchmarks, each beside a baseline measured in the
 * same run, and prints one table; {@code --jmh ARGS} hands the benchmarks to JMH's own command line.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Measure collectives, page copies, storage I/O, simulator, replay and TLC, each against a "
        + "baseline in the same run, and print one table.")
final class BenchCommand implements Callable<Integer> {

  @Option(names = "--smoke", description = "tiny sizes, no TLC: runs in seconds (CI keeps every path alive)")
  boolean smoke;

  @Option(names = "--workload", paramLabel = "PATH.jsonl",
      description = "Mooncake trace to replay (default: a generated conversation-shaped trace, seed 7)")
  Path workload;

  @Option(names = "--tlc-model", paramLabel = "NAME", defaultValue = "b10_fixed",
      description = "catalogue model TLC runs against the reference spec (default: ${DEFAULT-VALUE})")
  String tlcModel;

  @Option(names = "--no-tlc", description = "skip the TLC row")
  boolean noTlc;

  @Option(names = "--only", split = ",", paramLabel = "AREA",
      description = "run only these areas: collectives, copies, storage, simulator, replay, tlc; jgroups (rank"
          + " processes, 2/4/8 JVMs), events (the API's event check) and keys (storage keys) run only when named")
  List<String> only = List.of();

  @Option(names = "--jmh", paramLabel = "ARGS",
      description = "run the benchmarks with JMH's own command line instead of the table, e.g. --jmh"
          + " 'EventCheckBenchmark -prof gc' (JMH's -h lists its options)")
  String jmh;

  @Option(names = "--rounds", paramLabel = "N", description = "collective calls per rank per measured operation (default: 10000, smoke 300)")
  Integer rounds;

  @Option(names = "--chart-dir", paramLabel = "DIR",
      description = "write bench-cost-vs-ranks.png and bench-cost-vs-trace-length.png into DIR")
  Path chartDir;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (workload != null && !Files.isRegularFile(workload)) {
      err.println("hicache-sync bench: no such workload file: " + workload);
      return Main.EXIT_BAD_INPUT;
    }
    for (String area : only) {
      if (!BenchSuite.AREAS.contains(area)) {
        err.println("hicache-sync bench: unknown area '" + area + "'; expected one of " + String.join(", ", BenchSuite.AREAS));
        return Main.EXIT_BAD_INPUT;
      }
    }
    if (rounds != null && rounds < 1) {
      err.println("hicache-sync bench: --rounds must be >= 1");
      return Main.EXIT_BAD_INPUT;
    }
    String refusal = refusal();
    if (refusal != null) {
      err.println("hicache-sync bench: " + refusal);
      return Main.EXIT_BAD_INPUT;
    }
    if (jmh != null) {
      return jmh(jmh, err);
    }
    BenchSuite.Sizes base = smoke ? BenchSuite.Sizes.SMOKE : BenchSuite.Sizes.FULL;
    BenchSuite.Sizes sizes = base.with(rounds != null ? rounds : base.rounds(), base.tlc() && !noTlc);
    Path work = Files.createTempDirectory("hicache-bench-");
    out.println("bench: " + (smoke ? "smoke (figures not meant to be read)" : "full") + "; " + machine());
    out.flush();
    BenchSuite.Results results;
    try {
      results = new BenchSuite(sizes, work, workload, tlcModel, out).only(java.util.Set.copyOf(only)).run();
    } catch (BadInputException e) {
      err.println("hicache-sync bench: " + e.getMessage());
      return Main.EXIT_BAD_INPUT;
    } finally {
      deleteQuietly(work);
    }
    out.print(BenchSuite.table(results.rows()));
    out.println("load average after: " + loadAverage());
    if (chartDir != null) {
      for (Path p : BenchSuite.writeCharts(results, chartDir)) {
        out.println("chart: " + p);
      }
    }
    out.flush();
    return 0;
  }

  /**
   * Returns why the run cannot go as asked (one line), or null; checked before any benchmark runs: a conflict
   * would print an empty table, a bad trace would fail deep inside a forked JMH run, a chart folder that cannot
   * be written would fail after the minutes the table took.
   */
  private String refusal() {
    if (noTlc && only.contains("tlc")) {
      return "--no-tlc and --only tlc contradict each other: the table would be empty";
    }
    if (smoke && only.contains("tlc")) {
      return "--only tlc with --smoke: the smoke run has no TLC row";
    }
    if (workload != null && !only.isEmpty() && !only.contains("replay")) {
      return "--workload is the trace of the replay area, which --only " + String.join(",", only) + " leaves out";
    }
    try {
      if (workload != null) {
        try {
          if (dev.hicachesync.workload.MooncakeTrace.readAll(workload, 1).isEmpty()) {
            return "--workload " + workload + " holds no request: nothing to replay";
          }
          dev.hicachesync.workload.MooncakeTrace.readAll(workload, 0); // every line, before a fork replays it
        } catch (dev.hicachesync.workload.MalformedTraceException e) {
          return "--workload " + workload + ": " + e.getMessage();
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
          return "--workload " + workload + ": not a readable text trace (" + e.getMessage() + ")";
        }
      }
      if (chartDir != null && jmh == null) {
        OutputPaths.checkWritableFolder("--chart-dir", chartDir);
      }
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    return null;
  }

  /** JMH's own command line over the benchmarks compiled into this tool; its report goes to stdout. */
  private static int jmh(String args, PrintWriter err) throws RunnerException {
    CommandLineOptions options;
    try {
      options = new CommandLineOptions(args.isBlank() ? new String[0] : args.trim().split("\\s+"));
    } catch (CommandLineOptionException e) {
      err.println("hicache-sync bench: --jmh: " + e.getMessage());
      return Main.EXIT_BAD_INPUT;
    }
    if (options.shouldHelp() || options.shouldList()) {
      try {
        if (options.shouldHelp()) {
          options.showHelp();
        } else {
          new Runner(options).list();
        }
      } catch (java.io.IOException e) {
        err.println("hicache-sync bench: --jmh: " + e.getMessage());
        return Main.EXIT_TOOL_FAILED;
      }
      return 0;
    }
    new Runner(options).run();
    return 0;
  }

  static String machine() {
    return Runtime.getRuntime().availableProcessors() + " cores, Java " + Runtime.version() + ", "
        + Instant.now().truncatedTo(ChronoUnit.SECONDS) + ", load average " + loadAverage();
  }

  static String loadAverage() {
    try {
      List<String> f = List.of(Files.readString(Path.of("/proc/loadavg")).trim().split(" "));
      return String.join(" ", f.subList(0, 3));
    } catch (Exception e) {
      return "unknown";
    }
  }

  private static void deleteQuietly(Path dir) {
    try (var all = Files.walk(dir)) {
      for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (Exception ignored) {
      // a temporary folder left behind is harmless
    }
  }
}
