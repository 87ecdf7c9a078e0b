package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trace replay under {@code --faults abort}: the report keeps the per-request tiers of the requests that
 * were admitted (the abort decorator wraps the trace's workload, which holds them) and says how many were
 * aborted while waiting.
 */
class ReplayUnderFaultsTest {
  @TempDir
  Path dir;

  /** Forty requests on a few shared prefixes, arriving every 10 ms: some wait, some are aborted. */
  private Path trace() throws IOException {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      b.append("{\"timestamp\": ").append(i * 10).append(", \"input_length\": 1100, \"output_length\": 20, ")
          .append("\"hash_ids\": [").append(i % 3).append(", ").append(10 + i % 5).append(", ")
          .append(100 + i).append("]}\n");
    }
    return Files.writeString(dir.resolve("t.jsonl"), b.toString());
  }

  private static long group(String regex, String out, int g) {
    Matcher m = Pattern.compile(regex).matcher(out);
    assertTrue(m.find(), regex + " in\n" + out);
    return Long.parseLong(m.group(g));
  }

  @Test
  void abortedRequestsAreReportedAndTheAdmittedKeepTheirTiers() throws IOException {
    CommandRun r = CommandRun.of(new SimulateCommand(), "--workload", trace().toString(), "--cp", "2",
        "--tp", "1", "--max-total-tokens", "65536", "--max-running", "1", "--data", "off",
        "--seed", "5", "--faults", "abort=0.5");
    assertEquals(0, r.code(), r.out() + r.err());
    String out = r.out();
    long admitted = group("\\((\\d+) of 40 requests admitted, (\\d+) aborted waiting\\)", out, 1);
    long aborted = group("\\((\\d+) of 40 requests admitted, (\\d+) aborted waiting\\)", out, 2);
    assertTrue(aborted > 0 && admitted > 0, out);
    assertEquals(aborted, group("requests: arrived \\d+, admitted \\d+, finished \\d+, aborted (\\d+)", out, 1), out);
    assertEquals(40, admitted + aborted, "every request admitted or aborted: " + out);
    // The per-request tiers: the admitted requests' blocks (3 each), and their hits, not 0 of 0.
    long blocks = group("\\((\\d+) of (\\d+) blocks hit\\)", out, 2);
    long hitBlocks = group("\\((\\d+) of (\\d+) blocks hit\\)", out, 1);
    assertEquals(3 * admitted, blocks, out);
    assertTrue(hitBlocks > 0, out);
  }
}
