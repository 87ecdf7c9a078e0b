package dev.hicachesync.bench;

import dev.hicachesync.modelcheck.TextTable;
import dev.hicachesync.modelcheck.Workspace;
import dev.hicachesync.topology.Topology;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs every benchmark of {@code bench} in order and prints one table, every figure beside its baseline.
 *
 * <p>Sizes: {@link Sizes#FULL} takes a few minutes on 2 busy cores; {@link Sizes#SMOKE} takes seconds
 * and exists so that CI runs each path once (the figures of a smoke run are not meant to be read).
 */
public final class BenchSuite {
  /** How much work each benchmark does. */
  public record Sizes(int rounds, int trials, long warmupMillis, long measureMillis, int storagePages, long simSteps,
      int[] replayLengths, boolean tlc) {
    /** Seconds: enough for CI to run every path once. */
    public static final Sizes SMOKE = new Sizes(300, 1, 20, 40, 32, 60, new int[] {8}, false);
    /** Minutes: the figures for {@code docs/performance.md}. */
    public static final Sizes FULL = new Sizes(10_000, 5, 500, 1_500, 512, 3_000, new int[] {25, 50, 100, 200}, true);
  }

  private final Sizes sizes;
  private final Path work;
  private final Path trace;
  private final ReplayBench.Replayer replayer;
  private final String tlcModel;
  private final PrintWriter progress;
  private Set<String> only = Set.of();

  /** The areas {@code --only} accepts, in the order they run. */
  public static final List<String> AREAS = List.of("collectives", "copies", "storage", "simulator", "replay", "tlc",
      "jgroups");

  /**
   * @param trace a Mooncake trace to replay, or null for a generated one
   * @param tlcModel the catalogue model TLC runs against the reference spec
   * @param progress where each row is announced as it is measured
   */
  public BenchSuite(Sizes sizes, Path work, Path trace, ReplayBench.Replayer replayer, String tlcModel,
      PrintWriter progress) {
    this.sizes = sizes;
    this.work = work;
    this.trace = trace;
    this.replayer = replayer;
    this.tlcModel = tlcModel;
    this.progress = progress;
  }

  /** Runs only these areas (of {@link #AREAS}); empty: all. */
  public BenchSuite only(Set<String> areas) {
    this.only = Set.copyOf(areas);
    return this;
  }

  private boolean wants(String area) {
    // jgroups starts 14 JVMs (worlds of 2, 4 and 8 processes): only when named.
    return only.isEmpty() && !area.equals("jgroups") || only.contains(area);
  }

  /** The measured rows and the series for the charts. */
  public record Results(List<BenchRow> rows, Map<String, Map<Double, Double>> byRanks,
      Map<String, Map<Double, Double>> byTraceLength) {}

  /** Runs everything; returns the rows and chart series. */
  public Results run() throws Exception {
    List<BenchRow> rows = new ArrayList<>();
    Map<String, Map<Double, Double>> byRanks = new LinkedHashMap<>();
    Map<String, Map<Double, Double>> byLength = new LinkedHashMap<>();
    Clock clock = new Clock(sizes.warmupMillis() * 1_000_000, sizes.measureMillis() * 1_000_000);

    for (int ranks : wants("collectives") ? new int[] {2, 4, 8} : new int[0]) {
      for (BenchRow r : CollectiveBench.run(ranks, sizes.rounds(), sizes.trials())) {
        add(rows, r);
        String kind = r.area().startsWith("fabric all-reduce") ? "all-reduce" : "barrier";
        put(byRanks, "fabric " + kind + " (µs/call)", ranks, r.nanosPerOp() / 1e3);
        put(byRanks, r.baseline() + " (µs/call)", ranks, r.baselineNanosPerOp() / 1e3);
      }
    }
    if (wants("copies")) {
      CopyBench.run(clock, sizes.trials()).forEach(r -> add(rows, r));
    }
    if (wants("storage")) {
      StorageBench.run(clock, Files.createDirectories(work).resolve("storage-bench"), sizes.storagePages(),
          Math.max(1, sizes.trials() - 2))
          .forEach(r -> add(rows, r));
    }
    if (wants("simulator")) {
      simulator(rows, byRanks);
    }
    if (wants("replay")) {
      replay(rows, byLength);
    }
    if (wants("jgroups")) {
      JGroupsBench.run(new int[] {2, 4, 8}, Math.max(200, sizes.rounds() / 5), sizes.rounds()).forEach(r -> add(rows, r));
    }
    if (sizes.tlc() && wants("tlc")) {
      add(rows, TlcBench.run(Workspace.fromRoot(), tlcModel));
    }
    return new Results(rows, byRanks, byLength);
  }

  private void simulator(List<BenchRow> rows, Map<String, Map<Double, Double>> byRanks) {
    double oneRank = SimBench.nanosPerStep(Topology.of(1, 1, 1, 1), sizes.simSteps());
    put(byRanks, "simulator (µs/step)", 1, oneRank / 1e3);
    for (Topology t : List.of(Topology.of(1, 2, 2, 1), Topology.of(1, 2, 4, 1))) {
      BenchRow r = SimBench.row(t, sizes.simSteps(), oneRank);
      add(rows, r);
      put(byRanks, "simulator (µs/step)", t.worldSize(), r.nanosPerOp() / 1e3);
    }
  }

  private void replay(List<BenchRow> rows, Map<String, Map<Double, Double>> byLength) throws Exception {
    Path replayTrace = trace;
    if (replayTrace == null) {
      int longest = 0;
      for (int n : sizes.replayLengths()) {
        longest = Math.max(longest, n);
      }
      replayTrace = SyntheticTrace.write(work.resolve("bench-trace.jsonl"), longest, 7);
    }
    for (int n : sizes.replayLengths()) {
      double four = ReplayBench.nanosPerRequest(replayer, replayTrace, n, 2, 2);
      double one = ReplayBench.nanosPerRequest(replayer, replayTrace, n, 1, 1);
      put(byLength, "replay, 4 ranks (s)", n, four * n / 1e9);
      put(byLength, "replay, 1 rank (s)", n, one * n / 1e9);
      if (n == sizes.replayLengths()[sizes.replayLengths().length - 1]) {
        add(rows, new BenchRow("replay " + n + " requests, 4 ranks (cp2 tp2)", four, "the same replay on 1 rank",
            one, "request", ""));
      }
    }
  }

  private void add(List<BenchRow> rows, BenchRow r) {
    rows.add(r);
    progress.printf(Locale.ROOT, "  measured: %s%n", r.area());
    progress.flush();
  }

  private static void put(Map<String, Map<Double, Double>> series, String name, double x, double y) {
    series.computeIfAbsent(name, k -> new TreeMap<>()).put(x, y);
  }

  /** Renders the rows as the bench table. */
  public static String table(List<BenchRow> rows) {
    TextTable t = new TextTable("what", "cost", "per", "baseline", "baseline cost", "speed vs baseline", "target");
    for (BenchRow r : rows) {
      t.row(r.area(), BenchRow.time(r.nanosPerOp()), r.unit(), r.baseline(), BenchRow.time(r.baselineNanosPerOp()),
          String.format(Locale.ROOT, "%.0f %%", 100 * r.speedVsBaseline()), r.target());
    }
    return t.render();
  }

  /** Writes the two charts into {@code dir}. */
  public static List<Path> writeCharts(Results results, Path dir) throws java.io.IOException {
    Path ranks = dir.resolve("bench-cost-vs-ranks.png");
    Path length = dir.resolve("bench-cost-vs-trace-length.png");
    BenchChart.writePng(ranks, "Cost against ranks", "ranks", "µs per call / per step", results.byRanks());
    BenchChart.writePng(length, "Replay cost against trace length", "requests replayed", "seconds",
        results.byTraceLength());
    return List.of(ranks, length);
  }
}
