package dev.hicachesync.cli;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.report.HitRatioChart;
import dev.hicachesync.report.SweepPoint;
import dev.hicachesync.report.SweepTable;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.SimStats;
import dev.hicachesync.sim.Simulator;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import dev.hicachesync.workload.MalformedTraceException;
import dev.hicachesync.workload.MooncakeRequest;
import dev.hicachesync.workload.PrefixReuseOracle;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./hicache-sync sweep}: replays a trace once per (write policy, host ratio), prints the hit
 * ratios as a table and draws them with {@link HitRatioChart}; exit 1 if any replay diverged.
 *
 * <p>The trace is read and validated once and every replay gets the same requests; the oracle's
 * unbounded-cache ratio is printed first and drawn as the ceiling of the total panel. Replays run one
 * after another: each already runs one thread per rank.
 */
@Command(name = "sweep",
    description = {"Capacity sweep of a trace replay: hit ratio by tier against host capacity, one line "
        + "per write policy; prints a table and writes a PNG chart.",
        "At most " + WorldLimits.SIMULATE + " ranks (dp x cp x tp). Exit codes: 0, 1 a replay diverged, 2 bad input"
            + " (the chart and CSV paths are checked before the first replay), 4 I/O failure while writing them."})
public final class SweepCommand implements Callable<Integer> {

  @Mixin
  WorkloadOptions workload;

  // Not mixinStandardHelpOptions: its -V/--version would clash with the protocol --version below, and
  // picocli then drops --help as well.
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
  boolean help;

  @Option(names = "--host-ratio", split = ",", paramLabel = "R", defaultValue = "0,1,2,4",
      description = "Host (L2) capacities to sweep, as multiples of L1 (default: ${DEFAULT-VALUE}).")
  List<Double> hostRatios;

  @Option(names = "--write-policies", split = ",", paramLabel = "POLICY",
      defaultValue = "write_through,write_through_selective,write_back",
      description = "Write policies to sweep, one chart line each (default: ${DEFAULT-VALUE}).")
  List<String> writePolicies;

  @Option(names = {"--hicache-storage-prefetch-policy", "--policy"}, defaultValue = "best_effort",
      description = "Prefetch policy: best_effort, wait_complete, timeout (default: ${DEFAULT-VALUE}).")
  String prefetchPolicy;

  @Option(names = {"--storage", "--hicache-storage-backend"}, defaultValue = "memory",
      description = "L3 storage: file, memory, off (default: ${DEFAULT-VALUE}).")
  String storage;

  @Option(names = "--storage-durable",
      description = "With --storage file: fsync each page object before its rename, then its folder after it.")
  boolean storageDurable;

  @Option(names = "--device-pages", defaultValue = "16384",
      description = "L1 pages per rank (default: 2^20 tokens / --page-size).")
  int devicePages;

  @Option(names = "--dp", defaultValue = "1", description = "attention-DP replicas (default: ${DEFAULT-VALUE})")
  int dp;

  @Option(names = "--cp", defaultValue = "1", description = "attention-CP size (default: ${DEFAULT-VALUE})")
  int cp;

  @Option(names = "--tp", defaultValue = "1", description = "attention-TP size (default: ${DEFAULT-VALUE})")
  int tp;

  @Option(names = "--version", defaultValue = "merged",
      description = "protocol version: pre20460, post20460, merged, pipelined, unified (default: ${DEFAULT-VALUE})")
  String version;

  @Option(names = "--seed", defaultValue = "7", description = "the one seed (default: ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--out", paramLabel = "FILE.png", defaultValue = "sweep.png",
      description = "Where the chart goes (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--title", paramLabel = "TEXT", description = "Chart title (default: from the trace).")
  String title;

  /** Longest chart title: the chart draws it on one line, and JFreeChart's wrapping of a long one takes minutes. */
  static final int MAX_TITLE = 200;

  @Override
  public Integer call() throws IOException {
    PrintStream stdout = System.out;
    List<MooncakeRequest> trace;
    SimConfig.Builder base;
    int device;
    try {
      if (workload.workload == null) {
        throw new IllegalArgumentException("sweep needs --workload PATH.jsonl");
      }
      WorldLimits.check("sweep", WorldLimits.SIMULATE, dp, cp, tp, 1);
      OutputPaths.checkWritable("--out", out);
      OutputPaths.checkWritable("--out (its CSV)", csvOf(out));
      workload.validate();
      for (String p : writePolicies) {
        WritePolicy.parse(p);
      }
      if (title != null && title.length() > MAX_TITLE) {
        throw new IllegalArgumentException("--title is " + title.length() + " characters, over the bound of "
            + MAX_TITLE + " (a chart title is one line)");
      }
      device = workload.devicePages(devicePages, workload.given("--device-pages"));
      java.util.Set<Double> seen = new java.util.HashSet<>();
      for (double r : hostRatios) {
        if (!(r >= 0) || Double.isInfinite(r)) {
          throw new IllegalArgumentException("--host-ratio values must be finite and >= 0, got " + r);
        }
        if (!seen.add(r)) {
          throw new IllegalArgumentException("--host-ratio lists " + r + " twice; each ratio is one point of the chart");
        }
        double host = Math.floor(r * device);
        if (host > SimConfig.MAX_POOL_PAGES) {
          throw new IllegalArgumentException("--host-ratio " + r + " gives an L2 of " + (long) host + " pages ("
              + r + " x " + device + " L1 pages), over the bound of " + SimConfig.MAX_POOL_PAGES + " pages per rank");
        }
      }
      base = SimConfig.builder().topology(Topology.of(dp, cp, tp, 1)).seed(seed)
          .version(ProtocolVersion.parse(version)).storage(StorageMode.parse(storage))
          .prefetchPolicy(PrefetchPolicy.parse(prefetchPolicy))
          .storagePages(workload.storagePages(StorageMode.parse(storage))).storageDurable(storageDurable);
      base.build(); // every flag checked once here, before the first replay
      trace = workload.load();
    } catch (IllegalArgumentException | MalformedTraceException e) {
      System.err.println("hicache-sync sweep: " + e.getMessage());
      return Main.EXIT_BAD_INPUT;
    } catch (IOException e) {
      System.err.println("hicache-sync sweep: cannot read " + workload.workload + ": " + e);
      return Main.EXIT_BAD_INPUT;
    }
    PrefixReuseOracle.Result oracle = PrefixReuseOracle.of(trace.iterator(), workload.pageSize);
    stdout.printf(Locale.ROOT, "sweep: %s, %d requests, %d ranks, L1 %d pages of %d tokens, version %s, "
            + "storage %s (L3 %s), prefetch %s%n", workload.workload, trace.size(), dp * cp * tp, device,
        workload.pageSize, version, storage, Replay.l3(StorageMode.parse(storage),
            workload.storagePages(StorageMode.parse(storage)), workload.pageBytes()), prefetchPolicy);
    stdout.println("oracle " + oracle);

    List<SweepPoint> points = new ArrayList<>();
    boolean diverged = false;
    for (String policy : writePolicies) {
      for (double ratio : hostRatios) {
        SimResult r = replay(base, trace, device, policy, ratio);
        SimStats s = r.stats();
        double l1 = s.rate(s.deviceHitTokens());
        double l2 = s.rate(s.hostHitTokens());
        double l3 = s.rate(s.storageHitTokens());
        points.add(new SweepPoint(policy, ratio, l1, l2, l3, l1 + l2 + l3));
        diverged |= !r.ok();
        stdout.printf(Locale.ROOT, "  %-24s host ratio %-5s total %.4f  admitted %d/%d  %.1f s  divergence: %s%n",
            policy, ratio, l1 + l2 + l3, s.admitted(), trace.size(), r.elapsedMillis() / 1000.0,
            r.divergence() == null ? "none" + (r.ok() ? "" : ", NOT QUIET: " + r.quiescence().get(0))
                : r.divergence().invariant() + " at step " + r.divergence().step());
      }
    }
    stdout.print(SweepTable.format(points));
    String t = title != null ? title
        : "Hit ratio by tier vs host capacity: " + workload.workload.getFileName() + " (" + trace.size()
            + " requests, L1 " + device + " pages)";
    Path csv = csvOf(out);
    try {
      HitRatioChart.writePng(out, t, points, OptionalDouble.of(oracle.tokenRatio()),
          HitRatioChart.WIDTH, HitRatioChart.HEIGHT);
      Files.writeString(csv, SweepTable.csv(points));
    } catch (IOException | java.io.UncheckedIOException e) {
      System.err.println("hicache-sync sweep: I/O failure writing " + out + " or " + csv + ": " + e.getMessage());
      return Main.EXIT_IO_FAILED;
    }
    stdout.println("chart: " + out + ", data: " + csv);
    return diverged ? 1 : 0;
  }

  /** The CSV written beside the chart: {@code X.png} gives {@code X.csv}. */
  static Path csvOf(Path png) {
    return png.resolveSibling(png.getFileName().toString().replaceFirst("\\.png$", "") + ".csv");
  }

  private SimResult replay(SimConfig.Builder base, List<MooncakeRequest> trace, int device,
      String policy, double ratio) {
    int host = (int) Math.floor(ratio * device); // bounded by MAX_POOL_PAGES before the first replay
    base.writePolicy(WritePolicy.parse(policy)).pageSize(workload.pageSize)
        .maxRunning(workload.maxRunning()).devicePages(device).hostPages(host);
    workload.configure(base, trace, dp, device, null);
    return new Simulator(base.build()).run();
  }
}
