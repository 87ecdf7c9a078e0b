package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench --smoke} runs every JMH benchmark of the table once, in seconds, so that the benchmarks
 * cannot rot: every area has its row, every row a baseline measured in the same run, and the charts are
 * written. The figures themselves are not checked: they depend on the machine's load.
 */
class BenchCommandTest {
  @TempDir Path dir;

  /** Each row's label, and the baseline that must stand beside it. */
  private static final List<List<String>> ROWS = List.of(
      List.of("fabric all-reduce MIN 8 longs, 2 ranks", "CyclicBarrier exchange"),
      List.of("fabric all-reduce MIN 8 longs, 4 ranks", "CyclicBarrier exchange"),
      List.of("fabric all-reduce MIN 8 longs, 8 ranks", "CyclicBarrier exchange"),
      List.of("fabric barrier, 8 ranks", "CyclicBarrier.await"),
      List.of("host pool page_first readPage", "ByteBuffer bulk put (page)"),
      List.of("host pool layer_first writePage", "ByteBuffer bulk put (page)"),
      // A layer_first page against the same eight ranges copied in bulk, and against one contiguous copy.
      List.of("host pool layer_first readPage", "ByteBuffer bulk put (page), 8 ranges"),
      List.of("host pool layer_first readPage (contiguous baseline)", "ByteBuffer bulk put (page)"),
      List.of("file storage put", "FileChannel write + rename"),
      List.of("file storage get", "FileChannel read"),
      List.of("simulator, 4 ranks (cp2 tp2)", "the same run on 1 rank"),
      List.of("simulator, 8 ranks (cp2 tp4)", "the same run on 1 rank"),
      List.of("replay 8 requests, 4 ranks (cp2 tp2)", "the same replay on 1 rank"));

  private static final Pattern SPEED = Pattern.compile("  (\\d+) %");

  @Test
  void smokeRunHasEveryRowBesideItsBaselineAndWritesTheCharts() throws Exception {
    Path charts = dir.resolve("charts");
    CommandRun r = CommandRun.of(new BenchCommand(), "--smoke", "--chart-dir", charts.toString());
    assertEquals(0, r.code(), r.out() + r.err());
    for (List<String> row : ROWS) {
      String line = r.out().lines().filter(l -> l.startsWith(row.get(0) + " ")).findFirst().orElse(null);
      assertTrue(line != null, "no row '" + row.get(0) + "' in:\n" + r.out());
      assertTrue(line.contains(row.get(1)), "row without its baseline '" + row.get(1) + "': " + line);
      Matcher speed = SPEED.matcher(line);
      assertTrue(speed.find() && Long.parseLong(speed.group(1)) > 0, "no speed against the baseline: " + line);
    }
    assertTrue(r.out().contains("load average"), r.out());
    assertTrue(Files.size(charts.resolve("bench-cost-vs-ranks.png")) > 0);
    assertTrue(Files.size(charts.resolve("bench-cost-vs-trace-length.png")) > 0);
  }

  @Test
  void areasOnRequestHaveTheirRows() {
    CommandRun r = CommandRun.of(new BenchCommand(), "--smoke", "--only", "events,keys");
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("API event check, 8 ranks (merged cp2 tp4) ")
        && l.contains("its S123 all-reduce alone")), r.out());
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("storage key of a 64-token page (PageKey.chain) ")
        && l.contains("plain SHA-256")), r.out());
    assertTrue(r.out().lines().noneMatch(l -> l.startsWith("fabric ")), "only the areas named: " + r.out());
  }

  @Test
  void jmhListsTheBenchmarksTheTableIsMadeOf() {
    CommandRun r = CommandRun.of(new BenchCommand(), "--jmh", "-l");
    assertEquals(0, r.code(), r.out() + r.err());
    for (String b : List.of("CollectiveBenchmark.calls", "HostPoolCopyBenchmark.layerFirstRead",
        "FileStorageBenchmark.put", "SimulatorBenchmark.run", "ReplayBenchmark.replay", "EventCheckBenchmark.step",
        "ApiStepBenchmark.step",
        "PageKeyBenchmark.chain")) {
      assertTrue(r.out().contains("dev.hicachesync.bench." + b), b + " not in:\n" + r.out());
    }
  }

  @Test
  void badInputIsExitTwoWithOneLine() {
    for (String[] args : new String[][] {
        {"--smoke", "--only", "collectives,nosuch"},
        {"--smoke", "--workload", dir.resolve("missing.jsonl").toString()},
        {"--jmh", "-nosuchoption"},
        {"--smoke", "--rounds", "0"}}) {
      CommandRun r = CommandRun.of(new BenchCommand(), args);
      assertEquals(2, r.code(), String.join(" ", args) + ": " + r.out() + r.err());
      assertEquals(1, r.err().lines().count(), r.err());
      assertTrue(r.err().startsWith("hicache-sync bench: "), r.err());
    }
  }
}
