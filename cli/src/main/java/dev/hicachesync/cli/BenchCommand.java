package dev.hicachesync.cli;

import dev.hicachesync.bench.BenchSuite;
import dev.hicachesync.modelcheck.BadInputException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ./hicache-sync bench}: measures the project's hot paths, each beside a baseline measured in the
 * same run, and prints one table (see {@code docs/performance.md}).
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
          + " processes, 2/4/8 JVMs) runs only when named")
  List<String> only = List.of();

  @Option(names = "--rounds", paramLabel = "N", description = "collective calls per measurement (default: 10000, smoke 300)")
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
    BenchSuite.Sizes base = smoke ? BenchSuite.Sizes.SMOKE : BenchSuite.Sizes.FULL;
    BenchSuite.Sizes sizes = new BenchSuite.Sizes(rounds != null ? rounds : base.rounds(), base.trials(), base.warmupMillis(), base.measureMillis(),
        base.storagePages(), base.simSteps(), base.replayLengths(), base.tlc() && !noTlc);
    Path work = Files.createTempDirectory("hicache-bench-");
    out.println("bench: " + (smoke ? "smoke (figures not meant to be read)" : "full") + "; " + machine());
    out.flush();
    BenchSuite.Results results;
    try {
      results = new BenchSuite(sizes, work, workload, BenchCommand::replay, tlcModel, out).only(java.util.Set.copyOf(only)).run();
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

  /** One replay through {@code simulate}, its report discarded (the bench times it, nothing else). */
  private static void replay(Path trace, int requests, int cp, int tp) {
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    PrintStream sink = new PrintStream(OutputStream.nullOutputStream());
    int code;
    try {
      System.setOut(sink);
      System.setErr(sink);
      code = Main.execute(new PrintWriter(sink), new PrintWriter(sink), "simulate", "--workload", trace.toString(),
          "--requests", String.valueOf(requests), "--cp", String.valueOf(cp), "--tp", String.valueOf(tp));
    } finally {
      System.setOut(stdout);
      System.setErr(stderr);
    }
    if (code != 0) {
      throw new IllegalStateException("replay of " + trace + " (" + requests + " requests, cp " + cp + " tp " + tp
          + ") exited " + code);
    }
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
