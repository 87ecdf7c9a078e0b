package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command-line tool's bad inputs, one per kind: each is exit 2 with one line naming the problem, no stack trace,
 * and nothing run before the check (stdout empty).
 */
class BadInputCommandsTest {
  static final String REQUEST = "{\"timestamp\": 0, \"input_length\": 1100, \"output_length\": 20, \"hash_ids\": [0, 1, 2]}\n";

  @TempDir Path dir;

  /** Asserts exit 2, one stderr line containing every one of {@code words}, no trace, no run. */
  static CommandRun badInput(Callable<Integer> command, List<String> words, String... args) {
    CommandRun r = CommandRun.of(command, args);
    assertEquals(2, r.code(), () -> String.join(" ", args) + "\nout: " + r.out() + "\nerr: " + r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
    assertEquals("", r.out(), "nothing ran before the check");
    for (String w : words) {
      assertTrue(r.err().contains(w), () -> "'" + w + "' not in: " + r.err());
    }
    return r;
  }

  @Test
  void aWorkloadThatIsAFolderRandomBytesOrAHugeLineIsExitTwo() throws IOException {
    badInput(new SimulateCommand(), List.of("folder"), "--workload", dir.toString());
    byte[] noise = new byte[4096];
    new Random(16).nextBytes(noise);
    Path rnd = Files.write(dir.resolve("noise.jsonl"), noise);
    badInput(new SimulateCommand(), List.of("not UTF-8"), "--workload", rnd.toString());
    Path huge = dir.resolve("huge.jsonl");
    StringBuilder line = new StringBuilder("{\"timestamp\": 0, \"input_length\": 1, \"output_length\": 1, \"hash_ids\": [");
    while (line.length() < 3 << 20) {
      line.append("1, ");
    }
    Files.writeString(huge, REQUEST + line + "1]}\n", StandardCharsets.UTF_8);
    badInput(new SimulateCommand(), List.of("huge.jsonl:2", "longer than"), "--workload", huge.toString());
  }

  @Test
  void anUnusableStorageFolderIsNamedBeforeTheRun() throws IOException {
    badInput(new SimulateCommand(), List.of("/proc/hicache-store", "not usable"), "--storage", "file",
        "--storage-dir", "/proc/hicache-store");
    Path file = Files.writeString(dir.resolve("a-file"), "x");
    badInput(new SimulateCommand(), List.of(file.toString()), "--storage", "file", "--storage-dir",
        file.resolve("sub").toString());
    badInput(new SimulateCommand(), List.of("--fresh-storage"), "--fresh-storage");
  }

  @Test
  void outputPathsThatCannotBeWrittenAreExitTwoBeforeTheRun() throws IOException {
    Path trace = Files.writeString(dir.resolve("t.jsonl"), REQUEST);
    badInput(new SweepCommand(), List.of("--out", "/proc/sweep.png"), "--workload", trace.toString(), "--out",
        "/proc/sweep.png");
    badInput(new SweepCommand(), List.of("--out", "folder"), "--workload", trace.toString(), "--out",
        dir.toString());
    badInput(new SimulateCommand(), List.of("--trace", "/dev/full"), "--trace", "/dev/full");
    badInput(new SimulateCommand(), List.of("--log", "/proc/x.log"), "--log", "/proc/x.log", "--steps", "5");
  }

  @Test
  void poolsTooLargeForTheDataPathAreExitTwoBeforeTheRun() {
    // Under the pool bound (2^24 pages) but over one buffer with these pages; the bound itself: FaultBatteryTest.
    badInput(new SimulateCommand(), List.of("2 GiB"), "--host-pages", "16000000", "--page-bytes", "256");
    badInput(new SimulateCommand(), List.of("MiB"), "--cp", "64", "--tp", "8", "--host-pages", "16000000");
  }

  @Test
  void aWorldBeyondTheCommandsLimitIsExitTwoAtOnce() throws IOException {
    Path trace = Files.writeString(dir.resolve("t.jsonl"), REQUEST);
    badInput(new SimulateCommand(), List.of("at most " + WorldLimits.SIMULATE + " ranks"), "--cp", "1000000");
    badInput(new SimulateCommand(), List.of("at most"), "--dp", "1000000", "--cp", "1000000", "--tp", "1000000");
    badInput(new SweepCommand(), List.of("at most"), "--workload", trace.toString(), "--dp", "1000000");
    CommandRun check = CommandRun.of(new CheckCommand(), "--cp", "1000000", "--version", "merged");
    assertEquals(2, check.code(), check.out() + check.err());
    assertTrue((check.out() + check.err()).contains("at most"), check.out() + check.err());
    CommandRun help = CommandRun.of(new SimulateCommand(), "--help");
    assertTrue(help.out().contains("At most " + WorldLimits.SIMULATE + " ranks"), help.out());
  }

  /** A reused store is reported; --fresh-storage empties it first, so the same seed gives the same run. */
  @Test
  void aReusedStoreIsReportedAndFreshStorageReplaysTheSeed() throws IOException {
    String store = dir.resolve("store").toString();
    String[] args = {"--storage", "file", "--storage-dir", store, "--steps", "300", "--data", "off"};
    CommandRun first = CommandRun.of(new SimulateCommand(), args);
    assertEquals(0, first.code(), first.err());
    assertFalse(first.out().contains("not empty"), first.out());
    CommandRun reused = CommandRun.of(new SimulateCommand(), args);
    assertTrue(reused.out().contains("storage not empty at start"), reused.out());
    String[] fresh = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.stream.Stream.of(
        "--fresh-storage")).toArray(String[]::new);
    CommandRun again = CommandRun.of(new SimulateCommand(), fresh);
    assertFalse(again.out().contains("not empty"), again.out());
    assertEquals(first.out().lines().filter(l -> l.startsWith("hit rate")).toList(),
        again.out().lines().filter(l -> l.startsWith("hit rate")).toList());
  }

  /** A storage-on spec-shaped trace (it has S4, S5 and S7 events); the tests below edit it. */
  private List<String> storageTrace() throws IOException {
    Path t = dir.resolve("st.ndjson");
    CommandRun r = CommandRun.of(new SimulateCommand(), "--storage", "memory", "--cp", "2", "--tp", "1", "--seed",
        "1", "--device-pages", "1", "--host-pages", "2", "--trace-keys", "4", "--trace-requests", "10", "--trace",
        t.toString(), "--trace-loop", "spec");
    assertEquals(0, r.code(), r.out() + r.err());
    return Files.readAllLines(t);
  }

  private Path edited(String name, List<String> lines) throws IOException {
    return Files.write(dir.resolve(name), lines);
  }

  @Test
  void validateTraceRejectsAHeaderAloneEditedStepsAndAHeaderTheEventsContradict() throws IOException {
    List<String> lines = storageTrace();
    assertTrue(lines.stream().anyMatch(l -> l.contains("\"site\":\"S4\"")), "the trace must have S4 events");
    badInput(new ValidateTraceCommand(), List.of("no events"), edited("h.ndjson", lines.subList(0, 1)).toString());

    List<String> step = new java.util.ArrayList<>(lines);
    int i = 5;
    step.set(i, step.get(i).replaceFirst("\"step\":(\\d+)", "\"step\":7$1"));
    badInput(new ValidateTraceCommand(), List.of("s.ndjson:" + (i + 1), "step"), edited("s.ndjson", step).toString());

    List<String> policy = new java.util.ArrayList<>(lines);
    policy.set(0, policy.get(0).replace("\"Policy\":\"timeout\"", "\"Policy\":\"best_effort\""));
    badInput(new ValidateTraceCommand(), List.of("best_effort"), edited("p.ndjson", policy).toString());

    List<String> storage = new java.util.ArrayList<>(lines);
    storage.set(0, storage.get(0).replace("\"StorageOn\":true", "\"StorageOn\":false"));
    badInput(new ValidateTraceCommand(), List.of("StorageOn false"), edited("o.ndjson", storage).toString());

    byte[] noise = new byte[512];
    new Random(3).nextBytes(noise);
    badInput(new ValidateTraceCommand(), List.of("not UTF-8"), Files.write(dir.resolve("n.ndjson"), noise).toString());
  }
}
