package dev.hicachesync.bench;

import dev.hicachesync.modelcheck.TextTable;
import dev.hicachesync.modelcheck.Workspace;
import dev.hicachesync.topology.Topology;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs the benchmarks of {@code bench} area by area and prints one table, every figure beside its
 * baseline measured in the same run. The figures come from the JMH benchmarks of this package, run through
 * JMH's Runner API ({@link JmhRun}); the TLC row and the JGroups rows time child processes instead (TLC's
 * own wall time, the rank processes' own percentiles), which JMH cannot measure from inside one JVM.
 *
 * <p>Sizes: {@link Sizes#FULL} takes a few minutes on 2 busy cores, one forked JVM per benchmark;
 * {@link Sizes#SMOKE} takes seconds in this JVM and exists so that CI runs each path once (the figures of a
 * smoke run are not meant to be read).
 */
public final class BenchSuite {
  /**
   * How much work each benchmark does.
   *
   * @param rounds collective calls per rank per operation
   * @param forks JMH forks per benchmark (0: in this JVM)
   * @param warmupIterations timed benchmarks' warm-up iterations, of {@code warmupMillis} each
   * @param iterations timed benchmarks' measured iterations, of {@code iterationMillis} each (a figure is
   *     their median)
   * @param singleShotWarmups simulator runs before the measured ones
   * @param singleShots measured simulator and replay runs
   * @param storagePages distinct pages the storage benchmark writes and reads
   * @param simSteps steps of one simulator run
   * @param replayLengths requests replayed (the table shows the longest; the chart all)
   * @param tlc whether the TLC row runs
   */
  public record Sizes(int rounds, int forks, int warmupIterations, long warmupMillis, int iterations,
      long iterationMillis, int singleShotWarmups, int singleShots, int storagePages, long simSteps,
      int[] replayLengths, boolean tlc) {
    /** Seconds: enough for CI to run every path once. */
    public static final Sizes SMOKE = new Sizes(300, 0, 1, 20, 1, 40, 1, 1, 32, 60, new int[] {8}, false);
    /** Minutes: the figures for the measurements reference. */
    public static final Sizes FULL =
        new Sizes(10_000, 1, 3, 500, 5, 300, 1, 3, 512, 3_000, new int[] {25, 50, 100, 200}, true);

    /** The same sizes with {@code rounds} collective calls per operation and the TLC row on or off. */
    public Sizes with(int rounds, boolean tlc) {
      return new Sizes(rounds, forks, warmupIterations, warmupMillis, iterations, iterationMillis,
          singleShotWarmups, singleShots, storagePages, simSteps, replayLengths, tlc);
    }
  }

  private final Sizes sizes;
  private final Path work;
  private final Path trace;
  private final String tlcModel;
  private final PrintWriter progress;
  private Set<String> only = Set.of();

  /** The areas {@code --only} accepts, in the order they run. */
  public static final List<String> AREAS = List.of("collectives", "copies", "storage", "simulator", "replay", "tlc",
      "jgroups", "events", "keys");

  /** Areas that run only when named: jgroups starts 14 JVMs; events and keys are not in the default table. */
  private static final Set<String> ON_REQUEST = Set.of("jgroups", "events", "keys");

  /**
   * @param trace a Mooncake trace to replay, or null for a generated one
   * @param tlcModel the catalogue model TLC runs against the reference spec
   * @param progress where each row is announced as it is measured
   */
  public BenchSuite(Sizes sizes, Path work, Path trace, String tlcModel, PrintWriter progress) {
    this.sizes = sizes;
    this.work = work;
    this.trace = trace;
    this.tlcModel = tlcModel;
    this.progress = progress;
  }

  /** Runs only these areas (of {@link #AREAS}); empty: all but those that run only on request. */
  public BenchSuite only(Set<String> areas) {
    this.only = Set.copyOf(areas);
    return this;
  }

  private boolean wants(String area) {
    return only.isEmpty() && !ON_REQUEST.contains(area) || only.contains(area);
  }

  /** The measured rows and the series for the charts. */
  public record Results(List<BenchRow> rows, Map<String, Map<Double, Double>> byRanks,
      Map<String, Map<Double, Double>> byTraceLength) {}

  /** Runs everything; returns the rows and chart series. */
  public Results run() throws Exception {
    List<BenchRow> rows = new ArrayList<>();
    Map<String, Map<Double, Double>> byRanks = new LinkedHashMap<>();
    Map<String, Map<Double, Double>> byLength = new LinkedHashMap<>();
    if (wants("collectives")) {
      collectives(rows, byRanks);
    }
    if (wants("copies")) {
      copies(rows);
    }
    if (wants("storage")) {
      storage(rows);
    }
    if (wants("simulator")) {
      simulator(rows, byRanks);
    }
    if (wants("replay")) {
      replay(rows, byLength);
    }
    if (wants("jgroups")) {
      JmhRun fabric = collectiveRun(List.of(2, 4, 8), List.of("allReduce"));
      JGroupsBench.run(new int[] {2, 4, 8}, w -> fabric.nanos("calls", "ranks", String.valueOf(w),
          "variant", "allReduce") / sizes.rounds(), Math.max(200, sizes.rounds() / 5)).forEach(r -> add(rows, r));
    }
    if (sizes.tlc() && wants("tlc")) {
      TlcBench.run(Workspace.fromRoot(), tlcModel).forEach(r -> add(rows, r));
    }
    if (wants("events")) {
      JmhRun run = JmhRun.of(sizes, JmhRun.Kind.TIMED, EventCheckBenchmark.class, List.of(), Map.of());
      add(rows, new BenchRow("API event check, 8 ranks (merged cp2 tp4)", run.nanos("step", "variant", "eventCheck"),
          "its S123 all-reduce alone", run.nanos("step", "variant", "collectives"), "step of 8 ranks", ""));
    }
    if (wants("keys")) {
      JmhRun run = JmhRun.of(sizes, JmhRun.Kind.TIMED, PageKeyBenchmark.class, List.of(), Map.of());
      add(rows, new BenchRow("storage key of a 64-token page (PageKey.chain)", run.nanos("chain"),
          "plain SHA-256 (fresh digest, hex)", run.nanos("baselinePlainSha256"), "page", ""));
    }
    return new Results(rows, byRanks, byLength);
  }

  private JmhRun collectiveRun(List<Integer> ranks, List<String> variants) throws Exception {
    return JmhRun.of(sizes, JmhRun.Kind.TIMED, CollectiveBenchmark.class, List.of(),
        JmhRun.params("ranks", ranks, "variant", variants, "rounds", sizes.rounds()));
  }

  private void collectives(List<BenchRow> rows, Map<String, Map<Double, Double>> byRanks) throws Exception {
    JmhRun run = collectiveRun(List.of(2, 4, 8), List.of("allReduce", "exchange", "barrier", "await"));
    for (int ranks : new int[] {2, 4, 8}) {
      String n = String.valueOf(ranks);
      double allReduce = run.nanos("calls", "ranks", n, "variant", "allReduce") / sizes.rounds();
      double exchange = run.nanos("calls", "ranks", n, "variant", "exchange") / sizes.rounds();
      double barrier = run.nanos("calls", "ranks", n, "variant", "barrier") / sizes.rounds();
      double await = run.nanos("calls", "ranks", n, "variant", "await") / sizes.rounds();
      String target = ranks == 2 ? "≤ 2 µs" : "≥ 4× (≤ ¼ of the baseline)";
      add(rows, new BenchRow("fabric all-reduce MIN 8 longs, " + ranks + " ranks", allReduce,
          "CyclicBarrier exchange", exchange, "call", target));
      add(rows, new BenchRow("fabric barrier, " + ranks + " ranks", barrier, "CyclicBarrier.await", await, "call", ""));
      put(byRanks, "fabric all-reduce (µs/call)", ranks, allReduce / 1e3);
      put(byRanks, "CyclicBarrier exchange (µs/call)", ranks, exchange / 1e3);
      put(byRanks, "fabric barrier (µs/call)", ranks, barrier / 1e3);
      put(byRanks, "CyclicBarrier.await (µs/call)", ranks, await / 1e3);
    }
  }

  private void copies(List<BenchRow> rows) throws Exception {
    JmhRun run = JmhRun.of(sizes, JmhRun.Kind.TIMED, HostPoolCopyBenchmark.class, List.of(), Map.of());
    String bulk = "ByteBuffer bulk put (page)";
    String ranges = "ByteBuffer bulk put (page), 8 ranges";
    String page = "4 KiB page";
    add(rows, new BenchRow("host pool layer_first readPage", run.nanos("layerFirstRead"), ranges,
        run.nanos("baselineRangesRead"), page, "≥ 80 %"));
    add(rows, new BenchRow("host pool layer_first writePage", run.nanos("layerFirstWrite"), ranges,
        run.nanos("baselineRangesWrite"), page, "≥ 80 %"));
    add(rows, new BenchRow("host pool page_first readPage", run.nanos("pageFirstRead"), bulk,
        run.nanos("baselineBulkRead"), page, "≥ 80 %"));
    add(rows, new BenchRow("host pool page_first writePage", run.nanos("pageFirstWrite"), bulk,
        run.nanos("baselineBulkWrite"), page, "≥ 80 %"));
    // What the layout costs: the same layer_first copies against one contiguous copy (no target).
    add(rows, new BenchRow("host pool layer_first readPage (contiguous baseline)", run.nanos("layerFirstRead"), bulk,
        run.nanos("baselineBulkRead"), page, ""));
    add(rows, new BenchRow("host pool layer_first writePage (contiguous baseline)", run.nanos("layerFirstWrite"),
        bulk, run.nanos("baselineBulkWrite"), page, ""));
  }

  private void storage(List<BenchRow> rows) throws Exception {
    JmhRun run = JmhRun.of(sizes, JmhRun.Kind.TIMED, FileStorageBenchmark.class,
        List.of("put", "baselineRawPut", "get", "baselineRawGet"), JmhRun.params("pages", sizes.storagePages()));
    add(rows, new BenchRow("file storage put", run.nanos("put"), "FileChannel write + rename",
        run.nanos("baselineRawPut"), "4 KiB page", "≥ 70 %"));
    add(rows, new BenchRow("file storage get", run.nanos("get"), "FileChannel read", run.nanos("baselineRawGet"),
        "4 KiB page", "≥ 70 %"));
  }

  private void simulator(List<BenchRow> rows, Map<String, Map<Double, Double>> byRanks) throws Exception {
    List<Topology> topologies = List.of(Topology.of(1, 1, 1, 1), Topology.of(1, 2, 2, 1), Topology.of(1, 2, 4, 1));
    List<String> names = topologies.stream().map(BenchSuite::param).toList();
    JmhRun run = JmhRun.of(sizes, JmhRun.Kind.SINGLE_SHOT, SimulatorBenchmark.class, List.of(),
        JmhRun.params("topology", names, "steps", sizes.simSteps()));
    double oneRank = run.nanos("run", "topology", names.get(0)) / sizes.simSteps();
    put(byRanks, "simulator (µs/step)", 1, oneRank / 1e3);
    for (Topology t : topologies.subList(1, topologies.size())) {
      double perStep = run.nanos("run", "topology", param(t)) / sizes.simSteps();
      add(rows, new BenchRow("simulator, " + t.worldSize() + " ranks (" + SimulatorBenchmark.label(t) + ")", perStep,
          "the same run on 1 rank", oneRank, "step", ""));
      put(byRanks, "simulator (µs/step)", t.worldSize(), perStep / 1e3);
    }
  }

  private static String param(Topology t) {
    return t.dp() + "," + t.cp() + "," + t.tp() + "," + t.pp();
  }

  private void replay(List<BenchRow> rows, Map<String, Map<Double, Double>> byLength) throws Exception {
    int[] lengths = sizes.replayLengths();
    int longest = lengths[lengths.length - 1];
    Path replayTrace = trace != null ? trace : SyntheticTrace.write(work.resolve("bench-trace.jsonl"), longest, 7);
    List<Integer> requests = new ArrayList<>();
    for (int n : lengths) {
      requests.add(n);
    }
    // Replays are single runs, never warmed up: the first replay's cost is what a user of simulate pays.
    JmhRun run = JmhRun.of(new Sizes(sizes.rounds(), sizes.forks(), 0, 0, 0, 0, 0, 1, 0, 0, lengths, false),
        JmhRun.Kind.SINGLE_SHOT, ReplayBenchmark.class, List.of(),
        JmhRun.params("trace", replayTrace.toAbsolutePath().toString(), "requests", requests, "ranks",
            List.of("2,2", "1,1")));
    for (int n : lengths) {
      double four = run.nanos("replay", "requests", String.valueOf(n), "ranks", "2,2") / n;
      double one = run.nanos("replay", "requests", String.valueOf(n), "ranks", "1,1") / n;
      put(byLength, "replay, 4 ranks (s)", n, four * n / 1e9);
      put(byLength, "replay, 1 rank (s)", n, one * n / 1e9);
      if (n == longest) {
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
