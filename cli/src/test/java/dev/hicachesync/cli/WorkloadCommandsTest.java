package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.TestSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code simulate --workload} and {@code sweep}: replay output, exit codes, one-line trace errors. */
class WorkloadCommandsTest {

  /** Six hand-written requests sharing prefixes, with partial last blocks. */
  private static final String TRACE = String.join("\n",
      "{\"timestamp\": 0, \"input_length\": 1100, \"output_length\": 20, \"hash_ids\": [0, 1, 2]}",
      "{\"timestamp\": 30, \"input_length\": 1500, \"output_length\": 30, \"hash_ids\": [0, 1, 3]}",
      "{\"timestamp\": 60, \"input_length\": 1100, \"output_length\": 20, \"hash_ids\": [0, 1, 2]}",
      "{\"timestamp\": 90, \"input_length\": 2048, \"output_length\": 100, \"hash_ids\": [0, 1, 2, 4]}",
      "{\"timestamp\": 120, \"input_length\": 300, \"output_length\": 1, \"hash_ids\": [5]}",
      "{\"timestamp\": 150, \"input_length\": 777, \"output_length\": 50, \"hash_ids\": [5, 6]}", "");

  @TempDir
  Path dir;

  private static CommandRun run(Callable<Integer> command, String... args) {
    return CommandRun.of(command, args);
  }

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  @Test
  void simulateReplaysATraceAndEndsWithoutDivergence() throws IOException {
    Path trace = write("t.jsonl", TRACE);
    CommandRun r = run(new SimulateCommand(), "--workload", trace.toString(), "--cp", "2", "--tp", "2",
        "--max-total-tokens", "65536", "--hicache-ratio", "1");
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("workload: " + trace + ", 6 requests"), r.out());
    assertTrue(r.out().contains("L1 1024 pages, L2 1024 pages"), r.out());
    // Unbounded for six requests: the replay reaches the trace's own reuse, 3456 of 6825 tokens.
    assertTrue(r.out().contains("tokens 3456/6825 = 0.5064"), r.out());
    assertTrue(r.out().contains("total 0.5064 (6 of 6 requests admitted)"), r.out());
    // ... and in 512-token blocks too: the replay's hit blocks are the oracle's.
    java.util.regex.Matcher oracle =
        java.util.regex.Pattern.compile("512-token blocks (\\d+)/(\\d+) = ").matcher(r.out());
    java.util.regex.Matcher replay =
        java.util.regex.Pattern.compile("\\((\\d+) of (\\d+) blocks hit\\)").matcher(r.out());
    assertTrue(oracle.find() && replay.find(), r.out());
    assertEquals(oracle.group(1) + "/" + oracle.group(2), replay.group(1) + "/" + replay.group(2), r.out());
    assertTrue(!oracle.group(1).equals("0"), r.out());
    assertTrue(r.out().contains("prefetches: revoked"), r.out());
    assertTrue(r.out().strip().endsWith("divergence: none"), r.out());
  }

  @Test
  void malformedLineIsExitTwoWithOneLineNamingLineAndField() throws IOException {
    Path trace = write("bad.jsonl", TRACE.replace("\"input_length\": 300,", "\"input_length\": -3,"));
    String png = dir.resolve("x.png").toString();
    for (CommandRun r : new CommandRun[] {run(new SimulateCommand(), "--workload", trace.toString()),
        run(new SweepCommand(), "--workload", trace.toString(), "--out", png)}) {
      assertEquals(2, r.code(), r.out() + r.err());
      assertEquals(1, r.err().strip().lines().count(), r.err());
      assertTrue(r.err().contains("bad.jsonl:5: input_length: must be >= 0, got -3"), r.err());
      assertFalse(Files.exists(dir.resolve("x.png")));
    }
  }

  @Test
  void capacityFlagsThatContradictEachOtherAreExitTwo() throws IOException {
    Path trace = write("t.jsonl", TRACE);
    for (String[] args : new String[][] {
        {"--device-pages", "100", "--max-total-tokens", "6400"},
        {"--host-pages", "100", "--hicache-ratio", "2"},
        {"--device-pages", "20"}, // the 2048+100-token request needs 34 pages
        {"--page-size", "0"}}) {
      String[] all = new String[args.length + 2];
      all[0] = "--workload";
      all[1] = trace.toString();
      System.arraycopy(args, 0, all, 2, args.length);
      CommandRun r = run(new SimulateCommand(), all);
      assertEquals(2, r.code(), String.join(" ", args) + ": " + r.out() + r.err());
      assertEquals(1, r.err().strip().lines().count(), r.err());
    }
  }

  /** The sweep accepts version unified (its default stays merged, the README charts' version). */
  @Test
  void sweepRunsUnified() throws IOException {
    Path trace = write("t.jsonl", TRACE);
    Path png = dir.resolve("charts/sweep-unified.png");
    CommandRun r = run(new SweepCommand(), "--workload", trace.toString(), "--version", "unified",
        "--device-pages", "40", "--host-ratio", "0,2", "--write-policies", "write_through", "--out", png.toString());
    assertEquals(0, r.code(), r.out() + r.err());
    assertEquals(2, r.out().lines().filter(l -> l.contains("divergence: none")).count(), r.out());
  }

  @Test
  void sweepPrintsTheTableAndWritesTheChart() throws IOException {
    Path trace = write("t.jsonl", TRACE);
    Path png = dir.resolve("charts/sweep.png");
    CommandRun r = run(new SweepCommand(), "--workload", trace.toString(), "--device-pages", "40",
        "--host-ratio", "0,2", "--write-policies", "write_through,write_back", "--out", png.toString());
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("oracle prefix reuse (page 64): 6 requests"), r.out());
    assertEquals(4, r.out().lines().filter(l -> l.contains("divergence: none")).count(), r.out());
    assertTrue(r.out().contains("write policy             host ratio"), r.out());
    assertEquals(900, ImageIO.read(png.toFile()).getWidth());
    assertEquals(5, Files.readAllLines(dir.resolve("charts/sweep.csv")).size(), "header and 4 rows");
  }

  @Test
  void sweepHelpListsTheSweepAndCapacityFlags() {
    CommandRun r = run(new SweepCommand(), "--help");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("--host-ratio") && r.out().contains("--hicache-ratio"), r.out());
  }

  @Test
  void legacyVersionReplayReportsTheDivergence() {
    // The head of a real trace, committed with impl's tests: simulate names it if it is missing (exit 2).
    Path file = TestSpecs.root().resolve("sim/src/test/resources/workload/conversation_head300.jsonl");
    CommandRun r = run(new SimulateCommand(), "--workload", file.toString(), "--requests", "200",
        "--version", "pre20460", "--cp", "2", "--tp", "1", "--max-total-tokens", "262144");
    assertEquals(1, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("divergence: AckAgreement"), r.out());
  }
}
