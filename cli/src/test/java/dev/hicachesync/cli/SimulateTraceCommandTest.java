package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.TestSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code simulate --trace FILE} then {@code validate-trace FILE}, end to end through the CLI: the trace of
 * the default protocol and topology is accepted (0); the same trace with one result edited is rejected
 * (1); a cut line is not a trace (2); a storage-on trace is accepted; storage on with keys of more than one
 * page is refused (2, one line).
 */
class SimulateTraceCommandTest {

  private static Path file(String name) throws Exception {
    Path f = TestSpecs.root().resolve("cli/target/trace-cli-test/" + name + ".ndjson");
    Files.createDirectories(f.getParent());
    return f;
  }

  @Test
  void aSimulatedTraceIsAcceptedAndAnEditedOneRejected() throws Exception {
    Path f = file("simulated");
    CommandRun sim = CommandRun.of(new SimulateCommand(), "--seed", "3", "--trace", f.toString(), "--trace-loop",
        "spec");
    assertEquals(0, sim.code(), sim.out() + sim.err());
    assertTrue(sim.out().contains("trace: " + f + " (spec-shaped, requests "), sim.out());
    List<String> lines = Files.readAllLines(f);
    assertTrue(lines.get(0).contains("\"CP\":2,\"TP\":2,\"PP\":1,\"Version\":\"merged\""), lines.get(0));
    assertTrue(lines.get(0).contains("\"StorageOn\":false"), lines.get(0));

    ValidateTraceCommandTest.Outcome ok = ValidateTraceCommandTest.run(f.toString());
    assertEquals(0, ok.code(), ok.out() + ok.err());
    assertTrue(ok.out().contains(": accepted: all "), ok.out());

    // Every member's result of step 2's RECV becomes 9, which no MAX of the logged values gives.
    List<String> edited = new ArrayList<>(lines);
    int line = 0;
    for (int i = 1; i < edited.size(); i++) {
      String l = edited.get(i);
      if (l.contains("\"step\":2,") && l.contains("\"site\":\"RECV\"")) {
        edited.set(i, l.replaceFirst("\"res\":\\[\\d+\\]", "\"res\":[9]"));
        line = line == 0 ? i + 1 : line;
      }
    }
    assertTrue(line > 0 && !edited.equals(lines), "step 2 has a RECV");
    Path g = file("simulated-edited");
    Files.write(g, edited);
    ValidateTraceCommandTest.Outcome rejected = ValidateTraceCommandTest.run(g.toString());
    assertEquals(1, rejected.code(), rejected.out() + rejected.err());
    assertTrue(rejected.out().contains(": rejected: "), rejected.out());
    assertTrue(rejected.out().contains("(line " + line + ", "), "names the edited line " + line + ": " + rejected.out());

    List<String> cut = new ArrayList<>(lines);
    cut.set(3, cut.get(3).substring(0, cut.get(3).length() / 2));
    Path h = file("simulated-cut");
    Files.write(h, cut);
    ValidateTraceCommandTest.Outcome bad = ValidateTraceCommandTest.run(h.toString());
    assertEquals(2, bad.code(), bad.out() + bad.err());
    assertTrue(bad.err().contains("simulated-cut.ndjson:4: "), bad.err());
  }

  @Test
  void aTraceWithStorageOnIsAccepted() throws Exception {
    Path f = file("storage");
    CommandRun sim = CommandRun.of(new SimulateCommand(), "--storage", "memory", "--cp", "2", "--tp", "1",
        "--policy", "best_effort", "--seed", "3", "--device-pages", "1", "--host-pages", "2", "--trace-keys", "4",
        "--trace-requests", "10", "--trace", f.toString(), "--trace-loop", "spec");
    assertEquals(0, sim.code(), sim.out() + sim.err());
    List<String> lines = Files.readAllLines(f);
    assertTrue(lines.get(0).contains("\"StorageOn\":true") && lines.get(0).contains("\"PrefetchThreshold\":1"),
        lines.get(0));
    assertTrue(lines.stream().anyMatch(l -> l.contains("\"ch\":\"pf\",") && l.contains("\"site\":\"S7\"")),
        "the prefetch thread's S7 is logged");
    ValidateTraceCommandTest.Outcome ok = ValidateTraceCommandTest.run(f.toString());
    assertEquals(0, ok.code(), ok.out() + ok.err());
    assertTrue(ok.out().contains(": accepted: all "), ok.out());
  }

  @Test
  void aTraceWithStorageOnAndMultiPageKeysIsRefused() throws Exception {
    CommandRun r = CommandRun.of(new SimulateCommand(), "--storage", "memory", "--pages-per-key", "2", "--trace",
        file("storage-2p").toString(), "--trace-loop", "spec");
    assertEquals(2, r.code(), r.out() + r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().contains("with storage on needs --pages-per-key 1"), r.err());
  }

  @Test
  void aTraceOfVersionPipelinedIsRefused() throws Exception {
    CommandRun r = CommandRun.of(new SimulateCommand(), "--version", "pipelined", "--cp", "2", "--steps", "20",
        "--trace", file("pipelined").toString());
    assertEquals(2, r.code(), r.out() + r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().contains("version pipelined's asynchronous S123 has no trace rules"), r.err());
  }
}
