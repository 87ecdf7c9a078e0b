package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.hicachesync.trace.TraceFormatException;
import dev.hicachesync.trace.ndjson.TraceReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.core.Gen;

/**
 * Bad input everywhere: QuickTheories mutates valid inputs (drops or duplicates a field,
 * changes a value's type, puts in a huge number, cuts a line, splices in binary bytes) and feeds them to
 * the workload reader (through {@code simulate --workload}), the trace reader (as {@code validate-trace}
 * reads) and {@code simulate}'s options. Each must end in a clean run or in exit 2 with one line and no
 * stack trace. Seeded ({@code -Dhicache.qt.seed}); {@code -Dhicache.qt.examples} examples per input kind.
 */
class GeneratedBadInputTest {
  private static final long SEED = Long.getLong("hicache.qt.seed", 20_260_520L);
  private static final int EXAMPLES = Integer.getInteger("hicache.qt.examples", 25);

  private static final String WORKLOAD = String.join("\n",
      "{\"timestamp\": 0, \"input_length\": 1100, \"output_length\": 20, \"hash_ids\": [0, 1, 2]}",
      "{\"timestamp\": 30, \"input_length\": 1500, \"output_length\": 30, \"hash_ids\": [0, 1, 3]}",
      "{\"timestamp\": 60, \"input_length\": 300, \"output_length\": 1, \"hash_ids\": [5]}", "");

  /** A recorded spec-shaped trace's first lines (header and the events of step 0 at (1,2,1,1)). */
  private static final String TRACE = String.join("\n",
      "{\"trace\":\"hicache-sync-trace/1\",\"DP\":1,\"CP\":2,\"TP\":1,\"PP\":1,\"Version\":\"merged\",\"Policy\":\"timeout\","
          + "\"WritePolicy\":\"write_through\",\"StorageOn\":false,\"Requests\":[1,2],\"PagesPerKey\":1,\"DeviceCap\":2,"
          + "\"HostCap\":3,\"PrefetchThreshold\":1}",
      "{\"ev\":\"CollectiveCompletes\",\"r\":0,\"step\":0,\"grp\":\"domain\",\"ch\":\"sched\",\"m\":[0,1],\"site\":\"RECV\","
          + "\"stage\":1,\"op\":\"MAX\",\"val\":[1],\"res\":[1]}",
      "{\"ev\":\"CollectiveCompletes\",\"r\":1,\"step\":0,\"grp\":\"domain\",\"ch\":\"sched\",\"m\":[0,1],\"site\":\"RECV\","
          + "\"stage\":1,\"op\":\"MAX\",\"val\":[1],\"res\":[1]}",
      "");

  @TempDir Path dir;

  /** One mutation: which kind, where, and a seed for its bytes. */
  record Mutation(int kind, int position, int seed) {}

  private static Gen<Mutation> mutation() {
    return integers().between(0, 7).zip(integers().between(0, 10_000), integers().all(), Mutation::new);
  }

  private static final String[] HUGE = {"99999999999999999999999", "-1", "1e308", "2147483648", "-9223372036854775809",
      "\"7\"", "null", "true", "[]", "{}", "0.5"};

  /** Applies {@code m} to {@code text}: the result is a plausible damaged file, bytes included. */
  static byte[] mutate(String text, Mutation m) {
    Random rnd = new Random(m.seed());
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    int at = bytes.length == 0 ? 0 : m.position() % bytes.length;
    switch (m.kind()) {
      case 0 -> { // cut the file anywhere
        return java.util.Arrays.copyOf(bytes, at);
      }
      case 1 -> { // binary bytes spliced in
        byte[] junk = new byte[1 + rnd.nextInt(16)];
        rnd.nextBytes(junk);
        return splice(bytes, at, junk);
      }
      case 2 -> { // a number replaced by a huge or ill-typed value
        return replaceNth(text, "-?\\d+", rnd, HUGE[rnd.nextInt(HUGE.length)]);
      }
      case 3 -> { // a field dropped
        return replaceNth(text, "\"[A-Za-z_]+\":\\s*(\\[[^]]*]|\"[^\"]*\"|[^,}\\]]+),?\\s*", rnd, "");
      }
      case 4 -> { // a field duplicated
        return replaceNth(text, "\"[A-Za-z_]+\":\\s*(\\[[^]]*]|\"[^\"]*\"|[^,}\\]]+),", rnd, "$0$0");
      }
      case 5 -> { // a line duplicated or dropped
        List<String> lines = new ArrayList<>(text.lines().toList());
        int i = m.position() % lines.size();
        if (rnd.nextBoolean()) {
          lines.add(i, lines.get(i));
        } else {
          lines.remove(i);
        }
        return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
      }
      case 6 -> { // a string value given another type
        return replaceNth(text, "\"[a-z_]+\"(?=[,}])", rnd, HUGE[rnd.nextInt(HUGE.length)]);
      }
      default -> { // unchanged: the valid input must stay a clean run
        return bytes;
      }
    }
  }

  private static byte[] splice(byte[] a, int at, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, at);
    System.arraycopy(b, 0, out, at, b.length);
    System.arraycopy(a, at, out, at + b.length, a.length - at);
    return out;
  }

  private static byte[] replaceNth(String text, String regex, Random rnd, String with) {
    java.util.regex.Matcher mt = java.util.regex.Pattern.compile(regex).matcher(text);
    List<int[]> spans = new ArrayList<>();
    while (mt.find()) {
      spans.add(new int[] {mt.start(), mt.end()});
    }
    if (spans.isEmpty()) {
      return text.getBytes(StandardCharsets.UTF_8);
    }
    int[] s = spans.get(rnd.nextInt(spans.size()));
    String piece = text.substring(s[0], s[1]);
    String replaced = with.contains("$0") ? with.replace("$0", piece) : with;
    return (text.substring(0, s[0]) + replaced + text.substring(s[1])).getBytes(StandardCharsets.UTF_8);
  }

  /** Runs the tool as {@code ./hicache-sync} does (its one-line handlers included), capturing what it prints. */
  static CommandRun viaMain(String... args) {
    java.io.PrintStream oldOut = System.out;
    java.io.PrintStream oldErr = System.err;
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    try {
      System.setOut(new java.io.PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
      int code = Main.execute(new java.io.PrintWriter(System.out, true), new java.io.PrintWriter(System.err, true), args);
      return new CommandRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  /** Asserts a clean run (exit 0) or exit 2 with one line and no stack trace. */
  private static void cleanOrBadInput(CommandRun r, String what) {
    String all = "exit " + r.code() + " for " + what + "\nout: " + r.out() + "\nerr: " + r.err();
    assertTrue(r.code() == 0 || r.code() == 2, all);
    assertFalse(r.err().contains("\tat ") || r.err().contains("internal error"), all);
    if (r.code() == 2) {
      assertEquals(1, r.err().lines().count(), all);
    }
  }

  @Test
  void mutatedWorkloadsRunCleanlyOrAreExitTwoInOneLine() {
    qt().withFixedSeed(SEED).withExamples(EXAMPLES).forAll(mutation()).checkAssert(m -> {
      try {
        Path f = Files.write(dir.resolve("w.jsonl"), mutate(WORKLOAD, m));
        CommandRun r = viaMain("simulate", "--workload", f.toString(), "--cp", "1", "--tp", "1",
            "--steps", "40", "--data", "off", "--drain", "0");
        cleanOrBadInput(r, m + ": " + Files.readString(f, StandardCharsets.ISO_8859_1));
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    });
  }

  @Test
  void mutatedTracesAreReadOrRejectedInOneLine() {
    qt().withFixedSeed(SEED).withExamples(EXAMPLES * 4).forAll(mutation()).checkAssert(m -> {
      try {
        Path f = Files.write(dir.resolve("t.ndjson"), mutate(TRACE, m));
        try {
          TraceReader.readRun(f);
        } catch (TraceFormatException e) {
          assertEquals(1, e.getMessage().lines().count(), e.getMessage());
          assertTrue(e.getMessage().contains(f.toString()), e.getMessage());
        }
      } catch (IOException e) {
        throw new AssertionError(e);
      } catch (RuntimeException e) {
        throw new AssertionError("the trace reader threw " + e + " for " + m, e);
      }
    });
  }

  /**
   * A trace whose lines carry every integer field of the format: the header, a {@code RECV} with its
   * snapshot and a {@code pop}, and a {@code RankFailed}.
   */
  private static final String INTEGER_FIELDS_TRACE = String.join("\n",
      TRACE.lines().findFirst().orElseThrow(),
      "{\"ev\":\"CollectiveCompletes\",\"r\":0,\"step\":0,\"grp\":\"domain\",\"ch\":\"sched\",\"m\":[0,1],"
          + "\"site\":\"RECV\",\"stage\":1,\"op\":\"MAX\",\"val\":[1,5],\"res\":[1,5],\"pop\":[0],"
          + "\"snap\":{\"dfree\":2,\"hfree\":3,\"nwq\":0,\"nlq\":0,\"nrv\":0,\"nrl\":0,\"wait\":1,\"run\":0}}",
      "{\"ev\":\"RankFailed\",\"r\":1,\"step\":2,\"reason\":\"x\"}", "");

  /** A number where the format wants one: after {@code :}, {@code [} or {@code ,}, before {@code ,]}}. */
  private static final java.util.regex.Pattern INTEGER_VALUE =
      java.util.regex.Pattern.compile("(?<=[:\\[,])-?\\d+(?=[,\\]}])");
  private static final java.util.regex.Pattern FIELD_NAME = java.util.regex.Pattern.compile("\"(\\w+)\":");
  /** Not an integer at all: every integer field must refuse these (never round or truncate them). */
  private static final String[] NOT_INTEGERS = {"1.5", "1e3", "1.0", "-0.5", "2E+1", "0.0", "\"1\"", "true",
      "9223372036854775808", "-9223372036854775809", "100000000000000000000000000000"};
  /** Negative: refused everywhere but in the collective's values ({@code val}, {@code res}, {@code pop}). */
  private static final String[] NEGATIVE = {"-1", "-7"};
  /** Beyond an int: refused by the fields that hold an int (sizes, ranks, stage, capacities, request keys). */
  private static final String[] BEYOND_INT = {"2147483648", "4294967297"};
  private static final Set<String> ANY_LONG = Set.of("val", "res", "pop");
  private static final Set<String> LONG_FIELDS = Set.of("val", "res", "pop", "step", "dfree", "hfree", "nwq",
      "nlq", "nrv", "nrl", "wait", "run");

  /** Each integer of {@link #INTEGER_FIELDS_TRACE}: its offset and the field it belongs to. */
  private static List<Object[]> integerSlots(String text) {
    List<Object[]> slots = new ArrayList<>();
    java.util.regex.Matcher v = INTEGER_VALUE.matcher(text);
    while (v.find()) {
      String field = null;
      java.util.regex.Matcher f = FIELD_NAME.matcher(text.substring(0, v.start()));
      while (f.find()) {
        field = f.group(1);
      }
      slots.add(new Object[] {v.start(), v.end(), field});
    }
    return slots;
  }

  @Test
  void integerFieldsOfATraceRefuseFractionsExponentsHugeAndNegativeNumbers() throws Exception {
    Path valid = Files.writeString(dir.resolve("valid.ndjson"), INTEGER_FIELDS_TRACE);
    TraceReader.read(valid); // the unmutated trace is read: every refusal below is the mutation's
    List<Object[]> slots = integerSlots(INTEGER_FIELDS_TRACE);
    assertTrue(slots.size() >= 30, "every integer field found: " + slots.size());
    qt().withFixedSeed(SEED).withExamples(EXAMPLES * 12)
        .forAll(integers().between(0, slots.size() - 1), integers().between(0, 10_000))
        .checkAssert((slot, pick) -> {
          int start = (int) slots.get(slot)[0];
          int end = (int) slots.get(slot)[1];
          String field = (String) slots.get(slot)[2];
          List<String> bad = new ArrayList<>(List.of(NOT_INTEGERS));
          if (!ANY_LONG.contains(field)) {
            bad.addAll(List.of(NEGATIVE));
          }
          if (!LONG_FIELDS.contains(field)) {
            bad.addAll(List.of(BEYOND_INT));
          }
          String value = bad.get(pick % bad.size());
          String text = INTEGER_FIELDS_TRACE.substring(0, start) + value + INTEGER_FIELDS_TRACE.substring(end);
          String what = field + " = " + value + " in\n" + text;
          try {
            Path f = Files.writeString(dir.resolve("t.ndjson"), text);
            TraceReader.read(f);
            throw new AssertionError("accepted " + what);
          } catch (TraceFormatException e) {
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
            assertTrue(java.util.regex.Pattern.compile("field '[^']*\\b" + field + "\\b",
                java.util.regex.Pattern.CASE_INSENSITIVE).matcher(e.getMessage()).find(),
                "the message names the field: " + e.getMessage() + " for " + what);
          } catch (IOException e) {
            throw new AssertionError(e);
          } catch (RuntimeException e) {
            throw new AssertionError("the trace reader threw " + e + " for " + what, e);
          }
        });
  }

  private static final String[][] OPTIONS = {
      {"--dp", "--cp", "--tp", "--pp", "--seed", "--device-pages", "--host-pages", "--timeout-ms", "--page-bytes",
          "--version", "--storage", "--policy", "--write-policy", "--data", "--host-layout", "--fault", "--faults",
          "--requests", "--page-size", "--hicache-ratio", "--hicache-storage-size", "--storage-pages", "--max-running"},
  };
  private static final String[] VALUES = {"0", "-1", "1", "3", "abc", "", "99999999999999999999", "2147483647", "1e3",
      "0x10", "merged", "file", "corrupt=2", "on", "\u0000", "NaN"};

  @Test
  void mutatedOptionsRunCleanlyOrAreExitTwoInOneLine() {
    Gen<List<Integer>> picks = lists().of(integers().between(0, 10_000)).ofSizeBetween(1, 3);
    qt().withFixedSeed(SEED).withExamples(EXAMPLES * 2).forAll(picks).checkAssert(p -> {
      List<String> args = new ArrayList<>(List.of("--steps", "20", "--data", "off", "--timeout-ms", "20000"));
      for (int x : p) {
        String flag = OPTIONS[0][x % OPTIONS[0].length];
        String value = VALUES[(x / OPTIONS[0].length) % VALUES.length];
        if (flag.equals("--timeout-ms") || flag.equals("--device-pages") || flag.equals("--host-pages")) {
          value = value.equals("2147483647") || value.equals("99999999999999999999") ? "-1" : value; // bounded run
        }
        args.add(flag);
        args.add(value);
      }
      args.add(0, "simulate");
      CommandRun r = viaMain(args.toArray(String[]::new));
      cleanOrBadInput(r, String.join(" ", args));
    });
  }
}
