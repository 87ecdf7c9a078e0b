package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.tier.DeviceTiers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad and hostile inputs that once crashed, hung, deleted a user's file or were accepted though
 * meaningless, each as a case: the command line, the exit code it must give, and what the first line of
 * stderr must say. Every case runs in this JVM, through {@link Main#execute} as {@code ./hicache-sync}
 * runs it, and is refused before any work (no simulation, no TLC, no JMH): the whole battery takes seconds.
 * Each outcome is also written to {@code target/fault-battery.txt} (input, exit, first line) for the record.
 * The cases that need processes (a killed launcher, a stopped rank) are {@link ProcessFaultsTest}.
 */
class FaultBatteryTest {
  @TempDir static Path dir;
  private static final List<String> RECORD = new ArrayList<>();
  private static final String WORKLOAD = "/work/shared/workloads/mooncake/synthetic_trace.jsonl";

  /** One case: the arguments, the exit code, a text the first stderr line must contain. */
  record Case(String name, List<String> args, int code, String firstLine) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Path random;
  private static Path empty;
  private static Path trace;
  private static Path workload;

  @BeforeAll
  static void files() throws IOException {
    byte[] noise = new byte[4096];
    new Random(33).nextBytes(noise);
    random = Files.write(dir.resolve("random.jsonl"), noise);
    empty = Files.write(dir.resolve("empty.jsonl"), new byte[0]);
    // A small Mooncake trace of our own (the shared workloads may be absent on a CI machine).
    StringBuilder w = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      w.append("{\"timestamp\": ").append(i * 100).append(", \"input_length\": 1536, \"output_length\": 8,"
          + " \"hash_ids\": [0, 1, ").append(2 + i).append("]}\n");
    }
    workload = Files.writeString(dir.resolve("w.jsonl"), w.toString());
    trace = dir.resolve("t.ndjson");
    Outcome t = run("simulate", "--storage", "memory", "--cp", "2", "--tp", "1", "--seed", "3", "--trace-loop",
        "spec", "--trace-requests", "4", "--trace", trace.toString());
    assertEquals(0, t.code(), t.err());
  }

  @AfterAll
  static void record() throws IOException {
    Path out = Path.of("target", "fault-battery.txt");
    Files.createDirectories(out.getParent());
    Files.write(out, RECORD);
  }

  static Stream<Case> cases() throws IOException {
    String w = workload.toString();
    String png = dir.resolve("s.png").toString();
    List<Case> c = new ArrayList<>();
    // Sizes: each bounded before anything is allocated, the bound in the message.
    c.add(new Case("sweep --host-ratio Infinity", List.of("sweep", "--workload", w, "--out", png, "--host-ratio",
        "Infinity"), 2, "--host-ratio values must be finite and >= 0, got Infinity"));
    c.add(new Case("sweep --host-ratio 1e12", List.of("sweep", "--workload", w, "--out", png, "--host-ratio", "1e12"),
        2, "over the bound of 16777216 pages per rank"));
    c.add(new Case("sweep --host-ratio 1,1,1", List.of("sweep", "--workload", w, "--out", png, "--host-ratio",
        "1,1,1"), 2, "--host-ratio lists 1.0 twice"));
    c.add(new Case("sweep --title of 100,000 chars", List.of("sweep", "--workload", w, "--out", png, "--title",
        "x".repeat(100_000)), 2, "--title is 100000 characters, over the bound of 200"));
    c.add(new Case("simulate --host-pages 2000000000 --data off", List.of("simulate", "--host-pages", "2000000000",
        "--data", "off"), 2, "is over the bound of 16777216 pages (2^24)"));
    c.add(new Case("simulate --page-size 2000000000", List.of("simulate", "--page-size", "2000000000"), 2,
        "over the bound of 65536 tokens per page"));
    c.add(new Case("simulate --timeout-ms Long.MAX_VALUE", List.of("simulate", "--timeout-ms",
        String.valueOf(Long.MAX_VALUE)), 2, "--timeout-ms must be in 1..86400000 (a day)"));
    c.add(new Case("simulate --trace F --trace-loop spec --trace-requests 2000000000", List.of("simulate", "--trace",
        dir.resolve("big.ndjson").toString(), "--trace-loop", "spec", "--trace-requests", "2000000000"), 2,
        "--trace-requests must be in 1..100000, got 2000000000"));
    // Output paths: checked before TLC, JMH or the run.
    c.add(new Case("check --report /proc/x", List.of("check", "--model", "b10_fixed", "--report", "/proc/x"), 2,
        "--report /proc/x: no page can be written there"));
    c.add(new Case("check --report /dev/full", List.of("check", "--model", "b10_fixed", "--report", "/dev/full"), 2,
        "--report /dev/full: is not a folder"));
    c.add(new Case("validate-trace --report /dev/full", List.of("validate-trace", "--report", "/dev/full",
        trace.toString()), 2, "--report /dev/full: is not a folder"));
    c.add(new Case("bench --chart-dir /dev/full", List.of("bench", "--smoke", "--chart-dir", "/dev/full"), 2,
        "--chart-dir /dev/full: is not a folder"));
    c.add(new Case("simulate --processes --digest-log /dev/full", List.of("simulate", "--processes", "--storage",
        "off", "--digest-log", "/dev/full"), 2, "--digest-log /dev/full: is not a folder"));
    c.add(new Case("check --spec-dir /nonexistent", List.of("check", "--model", "b10_fixed", "--spec-dir",
        "/nonexistent"), 2, "--spec-dir /nonexistent: no such folder"));
    // Inputs that are no input.
    c.add(new Case("bench --only replay --workload <random bytes>", List.of("bench", "--smoke", "--only", "replay",
        "--workload", random.toString()), 2, "not UTF-8"));
    c.add(new Case("simulate --workload <empty>", List.of("simulate", "--workload", empty.toString()), 2,
        "holds no request"));
    c.add(new Case("sweep --workload <empty>", List.of("sweep", "--workload", empty.toString(), "--out", png), 2,
        "holds no request"));
    c.add(new Case("bench --workload <empty>", List.of("bench", "--smoke", "--only", "replay", "--workload",
        empty.toString()), 2, "holds no request"));
    // Accepted though meaningless: now refused, naming the conflict.
    c.add(new Case("simulate --storage memory --storage-dir D", List.of("simulate", "--storage", "memory",
        "--storage-dir", dir.resolve("sd").toString()), 2, "--storage-dir is the folder of --storage file, but"
            + " --storage is memory"));
    c.add(new Case("simulate --faults corrupt=0.5 --storage off", List.of("simulate", "--faults", "corrupt=0.5",
        "--storage", "off"), 2, "--faults corrupt acts on the storage tier, but --storage is off"));
    c.add(new Case("simulate --faults corrupt given twice", List.of("simulate", "--faults",
        "corrupt=0.1,slow=0.2,corrupt=0.3"), 2, "--faults: corrupt is given twice"));
    c.add(new Case("simulate --faults oversized=0.1 --storage memory", List.of("simulate", "--faults",
        "oversized=0.1"), 2, "it needs --storage file"));
    c.add(new Case("simulate --faults forged=0.1 --data off", List.of("simulate", "--faults", "forged=0.1", "--data",
        "off"), 2,
        "it needs --data on"));
    c.add(new Case("simulate --kill-rank 1@500 in a 20-step run", List.of("simulate", "--processes", "--storage",
        "off", "--steps", "20", "--kill-rank", "1@500"), 2, "step 500 is past the run's last step (20 steps"));
    c.add(new Case("simulate --trace-aborts without --trace", List.of("simulate", "--trace-aborts"), 2,
        "--trace-aborts shapes a traced run; it needs --trace FILE"));
    c.add(new Case("bench --no-tlc --only tlc", List.of("bench", "--no-tlc", "--only", "tlc"), 2,
        "--no-tlc and --only tlc contradict each other"));
    c.add(new Case("rank --ports with a port twice", List.of("rank", "--world", "2", "--rank", "0", "--ports",
        "45001,45001", "--cp", "2", "--tp", "1", "--storage", "off"), 2,
        "--ports: port 45001 is given to rank 0 and rank 1"));
    c.add(new Case("rank --report /dev/full", List.of("rank", "--world", "2", "--rank", "0", "--ports",
        "45001,45002", "--cp", "2", "--tp", "1", "--storage", "off", "--report", "/dev/full"), 2,
        "--report /dev/full: cannot be written"));
    // validate-trace: a header the events contradict names the field.
    c.add(new Case("validate-trace with HostCap edited", List.of("validate-trace", edit("HostCap", 3, 4).toString()),
        2, "the header's HostCap 4 contradicts rank"));
    c.add(new Case("validate-trace with CP edited", List.of("validate-trace", edit("CP", 2, 3).toString()), 2,
        "the header's CP 3 x TP 1 x PP 1"));
    c.add(new Case("validate-trace with DeviceCap edited", List.of("validate-trace", edit("DeviceCap", 2, 1)
        .toString()), 2, "the header's DeviceCap 1 contradicts rank"));
    // The GPU asked for by name: bad input on a machine without one (checked before the run).
    if (!DeviceTiers.probe().available()) {
      c.add(new Case("simulate --device cuda without CUDA", List.of("simulate", "--device", "cuda"), 2,
          "--device cuda: no usable CUDA device"));
    }
    return c.stream();
  }

  /** The battery's trace with one header field changed. */
  private static Path edit(String field, int from, int to) throws IOException {
    List<String> lines = new ArrayList<>(Files.readAllLines(trace));
    String header = lines.get(0);
    String edited = header.replace("\"" + field + "\":" + from + ",", "\"" + field + "\":" + to + ",");
    assertFalse(header.equals(edited), field + " " + from + " not in " + header);
    lines.set(0, edited);
    return Files.write(dir.resolve("edited-" + field + ".ndjson"), lines);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void refusedBeforeAnyWorkWithOneLine(Case c) {
    long start = System.nanoTime();
    Outcome o = run(c.args().toArray(String[]::new));
    long ms = (System.nanoTime() - start) / 1_000_000;
    String first = o.err().lines().findFirst().orElse("");
    RECORD.add(c.name() + " | exit " + o.code() + " | " + first + " | " + ms + " ms");
    assertEquals(c.code(), o.code(), c + ": " + o.out() + o.err());
    assertEquals(1, o.err().lines().count(), "one line, no stack trace: " + o.err());
    assertFalse(o.err().contains("\tat "), o.err());
    assertTrue(first.contains(c.firstLine()), "first line: " + first);
    assertFalse(o.out().contains("divergence:"), "no run started: " + o.out());
  }

  /**
   * A forged store (every page's payload changed, checksum recomputed, under its own key) is read as a store
   * forgery: failed reads, named as such, no divergence; never the protocol invariant HostSlotSafety.
   */
  @Test
  void aForgedStoreIsReportedAsAStoreForgery() throws IOException {
    Path store = dir.resolve("forged");
    String[] args = {"simulate", "--storage", "file", "--storage-dir", store.toString(), "--steps", "400",
        "--data", "on", "--seed", "5"};
    Outcome first = run(args);
    assertEquals(0, first.code(), first.err());
    try (Stream<Path> pages = Files.walk(store)) {
      for (Path p : pages.filter(p -> p.toString().endsWith(".page")).toList()) {
        Files.write(p, forge(Files.readAllBytes(p)));
      }
    }
    Outcome again = run(args);
    RECORD.add("simulate on a forged store | exit " + again.code() + " | "
        + again.out().lines().filter(l -> l.startsWith("store forgery")).findFirst().orElse("(no forgery line)"));
    assertEquals(0, again.code(), again.out() + again.err());
    assertTrue(again.out().contains("divergence: none"), again.out());
    assertTrue(again.out().lines().anyMatch(l -> l.startsWith("store forgery: ")), again.out());
    assertFalse(again.out().contains("HostSlotSafety"), again.out());
  }

  /** A page object's last payload byte changed and its CRC32C (of key and payload) recomputed. */
  private static byte[] forge(byte[] object) {
    object[object.length - 1] ^= 0x5a;
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(object, 16, object.length - 16);
    java.nio.ByteBuffer.wrap(object).putInt(8, (int) crc.getValue());
    return object;
  }

  /**
   * {@code --fresh-storage} on a store holding the user's files: only the tool's page objects go, with a count;
   * on a folder that is no store (no marker), nothing goes and the run is refused.
   */
  @Test
  void freshStorageDeletesOnlyWhatTheToolWroteAndSaysHowMuch() throws IOException {
    Path store = dir.resolve("fresh");
    String[] args = {"simulate", "--storage", "file", "--storage-dir", store.toString(), "--steps", "200",
        "--data", "off"};
    assertEquals(0, run(args).code());
    List<Path> user = List.of(store.resolve("docs/chapter1.page"), store.resolve("ab/my.page"),
        store.resolve("ab/.put-mine.tmp"));
    for (Path p : user) {
      Files.createDirectories(p.getParent());
      Files.writeString(p, "the user's");
    }
    List<String> fresh = new ArrayList<>(List.of(args));
    fresh.add("--fresh-storage");
    Outcome o = run(fresh.toArray(String[]::new));
    assertEquals(0, o.code(), o.err());
    String line = o.out().lines().filter(l -> l.startsWith("fresh storage: removed ")).findFirst().orElse("");
    RECORD.add("simulate --fresh-storage on a store with the user's files | exit " + o.code() + " | " + line);
    assertTrue(line.matches("fresh storage: removed [1-9][0-9]* page object\\(s\\) and 0 temporary file\\(s\\)"
        + " from .*; kept 2 other file\\(s\\).*"), o.out());
    for (Path p : user) {
      assertTrue(Files.exists(p), p + " is the user's");
    }

    Path notAStore = Files.createDirectories(dir.resolve("notastore"));
    Files.writeString(notAStore.resolve("thesis.page"), "the user's");
    Outcome refused = run("simulate", "--storage", "file", "--storage-dir", notAStore.toString(), "--fresh-storage");
    RECORD.add("simulate --fresh-storage on a folder that is no store | exit " + refused.code() + " | "
        + refused.err().lines().findFirst().orElse(""));
    assertEquals(2, refused.code(), refused.out() + refused.err());
    assertTrue(refused.err().contains("no store marker"), refused.err());
    assertTrue(Files.exists(notAStore.resolve("thesis.page")));
  }

  record Outcome(int code, String out, String err) {}

  /** Runs the command line as {@code ./hicache-sync} does, in this JVM, capturing both streams. */
  static Outcome run(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    StringWriter picoOut = new StringWriter();
    StringWriter picoErr = new StringWriter();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int code = Main.execute(new PrintWriter(picoOut, true), new PrintWriter(picoErr, true), args);
      return new Outcome(code, out.toString(StandardCharsets.UTF_8) + picoOut,
          err.toString(StandardCharsets.UTF_8) + picoErr);
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }
}
