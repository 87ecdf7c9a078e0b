package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The L3 capacity flags of {@code simulate} and {@code sweep}: reported when valid, exit 2 otherwise. */
class StorageCapacityFlagsTest {

  private static final String TRACE = String.join("\n",
      "{\"timestamp\": 0, \"input_length\": 1100, \"output_length\": 20, \"hash_ids\": [0, 1, 2]}",
      "{\"timestamp\": 30, \"input_length\": 1500, \"output_length\": 30, \"hash_ids\": [0, 1, 3]}",
      "{\"timestamp\": 60, \"input_length\": 1100, \"output_length\": 20, \"hash_ids\": [0, 1, 2]}", "");

  @TempDir
  Path dir;

  private Path trace() throws IOException {
    return Files.writeString(dir.resolve("t.jsonl"), TRACE);
  }

  @Test
  void simulateReportsTheL3CapacityInPagesAndGb() throws IOException {
    // 64 tokens x 131,072 B = 8 MiB per page: 0.05 GB holds 5 pages.
    CommandRun r = CommandRun.of(new SimulateCommand(), "--workload", trace().toString(), "--cp", "2",
        "--tp", "1", "--max-total-tokens", "65536", "--hicache-storage-size", "0.05", "--data", "off");
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("L3 5 pages (0.042 GB) per rank, LRU"), r.out());
    assertTrue(r.out().contains("storage capacity: 5 pages per rank (LRU), evicted "), r.out());
    assertTrue(r.out().strip().endsWith("divergence: none"), r.out());
  }

  @Test
  void withoutAFlagL3IsUnbounded() throws IOException {
    CommandRun r = CommandRun.of(new SimulateCommand(), "--workload", trace().toString(), "--cp", "1",
        "--tp", "1", "--max-total-tokens", "65536", "--data", "off");
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("; L3 unbounded;"), r.out());
    assertTrue(!r.out().contains("storage capacity:"), r.out());
  }

  @Test
  void badL3ValuesAreExitTwoWithOneLine() throws IOException {
    String t = trace().toString();
    String png = dir.resolve("x.png").toString();
    for (String[] args : new String[][] {
        {"--storage-pages", "0"},
        {"--storage-pages", "-3"},
        {"--storage-pages", "many"},
        {"--hicache-storage-size", "0"},
        {"--hicache-storage-size", "-1"},
        {"--hicache-storage-size", "NaN"},
        {"--hicache-storage-size", "0.000001"}, // less than one 8 MiB page
        {"--hicache-storage-size", "1", "--storage-pages", "10"},
        {"--storage", "off", "--storage-pages", "10"}}) {
      for (boolean sweep : new boolean[] {false, true}) {
        // Through Main, as ./hicache-sync runs it: a value picocli cannot convert is its one line too.
        String[] all = new String[args.length + 5];
        all[0] = sweep ? "sweep" : "simulate";
        all[1] = "--workload";
        all[2] = t;
        all[3] = sweep ? "--out" : "--max-total-tokens";
        all[4] = sweep ? png : "65536";
        System.arraycopy(args, 0, all, 5, args.length);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code;
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try {
          // The commands print their own errors through System.err; Main's handler through err.
          System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
          System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
          code = Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), all);
        } finally {
          System.setOut(oldOut);
          System.setErr(oldErr);
        }
        String text = err + printed.toString(StandardCharsets.UTF_8) + out;
        String what = String.join(" ", all);
        assertEquals(2, code, what + ": " + text);
        assertEquals(1, text.strip().lines().count(), what + ": " + text);
      }
    }
    assertTrue(!Files.exists(dir.resolve("x.png")), "no chart from a refused sweep");
  }

  @Test
  void aBoundedL3UnderPipelineStagesIsExitTwo() {
    CommandRun r = CommandRun.of(new SimulateCommand(), "--version", "merged", "--pp", "2", "--storage-pages", "100");
    assertEquals(2, r.code(), r.out() + r.err());
    assertTrue(r.err().contains("needs pp = 1"), r.err());
  }
}
