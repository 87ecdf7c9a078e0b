package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.TestSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code simulate --trace} then {@code validate-trace}, the simulator's own loop (the same run as without
 * {@code --trace}) checked by {@code spec/TraceHiCacheRun.tla}: a run of several running requests with decode
 * steps, shared prefixes, storage on (S7 revokes, S4), aborts is accepted; one edited result, pop count or
 * snapshot field is rejected at that event; a run with a protocol bug switched on (B5: the load acks popped by
 * the rank's own count) is rejected at the sync point that popped it; two windows give one pass's verdict.
 * {@code -Dhicache.trace.long=true} adds the goal runs: CP 2 x TP 2, 300 steps, every version, write policy
 * and prefetch policy, and a Mooncake slice.
 */
class RunTraceCommandTest {

  private static Path file(String name) throws Exception {
    Path f = TestSpecs.root().resolve("modelcheck/target/trace-cli-test/run-" + name + ".ndjson");
    Files.createDirectories(f.getParent());
    return f;
  }

  /** {@code simulate args --trace f}, checked to be the same run as without {@code --trace}; returns the trace. */
  static List<String> traced(String name, String... args) throws Exception {
    Path f = file(name);
    CommandRun plain = CommandRun.of(new SimulateCommand(), args);
    List<String> with = new ArrayList<>(List.of(args));
    with.addAll(List.of("--trace", f.toString()));
    CommandRun sim = CommandRun.of(new SimulateCommand(), with.toArray(String[]::new));
    assertEquals(plain.code(), sim.code(), sim.out() + sim.err());
    assertEquals(TraceFeaturesCommandTest.report(plain), TraceFeaturesCommandTest.report(sim),
        "--trace changes nothing but its own line");
    return new ArrayList<>(Files.readAllLines(f));
  }

  static ValidateTraceCommandTest.Outcome validate(String name, List<String> lines, String... more) throws Exception {
    List<String> argv = new ArrayList<>(List.of(ValidateTraceCommandTest.file("run-" + name, lines).toString()));
    argv.addAll(List.of(more));
    return ValidateTraceCommandTest.run(argv.toArray(String[]::new));
  }

  /** The event number and file line an outcome names, e.g. "event 12 of 300 (line 40, ". */
  private static int[] eventAndLine(String out) {
    Matcher m = Pattern.compile("event (\\d+) of \\d+ \\(line (\\d+), ").matcher(out);
    assertTrue(m.find(), out);
    return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))};
  }

  /** The number of the spec event that holds file line {@code line} (a collective's event holds every member's line). */
  static int eventOfLine(List<String> lines, int line) throws Exception {
    dev.hicachesync.trace.Trace t = dev.hicachesync.trace.ndjson.TraceReader.parse("x", lines);
    Object record = t.events().stream().filter(l -> l.number() == line).findFirst().orElseThrow().record();
    return dev.hicachesync.modelcheck.validate.SpecEvents.merge(t).stream()
        .filter(e -> e.members().containsValue(record) || e.first() == record).findFirst().orElseThrow().number();
  }

  /** A short run of the simulator's own loop at CP 2 x TP 1: merged, storage on, the default workload. */
  private static final String[] SHORT = {"--version", "merged", "--cp", "2", "--tp", "1", "--steps", "60",
      "--seed", "5", "--data", "off"};

  @Test
  void theSimulatorsOwnRunIsAcceptedAndOneEditedFieldIsRejectedThere() throws Exception {
    List<String> lines = traced("short", SHORT);
    assertTrue(lines.get(0).contains("\"several_running\"") && lines.get(0).contains("\"decode\""), lines.get(0));
    ValidateTraceCommandTest.Outcome ok = validate("short", lines, "--window", "0");
    assertEquals(0, ok.code(), ok.out() + ok.err());
    assertTrue(ok.out().contains(": accepted: all ") && ok.out().contains("(TraceHiCacheRun) (merged"), ok.out());
    // In two windows, the second starting from the state TLC reached at the end of the first: the same
    // verdict and the same distinct states as one pass.
    ValidateTraceCommandTest.Outcome two = validate("short-windows", lines, "--window", "" + (lines.size() / 4));
    assertEquals(0, two.code(), two.out() + two.err());
    String states = "(?s).*TLC: ([\\d,]+) distinct states.*";
    assertEquals(ok.out().replaceAll(states, "$1"), two.out().replaceAll(states, "$1"), two.out());

    // A result: the first S123 with a write ack agreed, its first member's result one more (no MIN gives it).
    int res = editFirst(lines, l -> l.contains("\"site\":\"S123\"") && l.matches(".*\"res\":\\[[1-9].*"),
        "\"res\":\\[(\\d+)");
    ValidateTraceCommandTest.Outcome r = validate("short-res", edited);
    assertEquals(1, r.code(), r.out() + r.err());
    assertTrue(r.out().contains(": rejected: "), r.out());
    assertEquals(res, eventAndLine(r.out())[1], "names the edited line: " + r.out());

    // A pop count: the rank popped one ack more than the domain agreed.
    int pop = editFirst(lines, l -> l.contains("\"site\":\"S123\"") && l.matches(".*\"pop\":\\[[1-9].*"),
        "\"pop\":\\[(\\d+)");
    ValidateTraceCommandTest.Outcome p = validate("short-pop", edited);
    assertEquals(1, p.code(), p.out() + p.err());
    assertTrue(p.out().contains(": rejected: "), p.out());
    assertEquals(pop, eventAndLine(p.out())[1], "names the edited line: " + p.out());

    // A snapshot field: one rank says it has one free host page fewer at a RECV (a lockstep point).
    int snap = editFirst(lines, l -> l.contains("\"site\":\"RECV\"") && l.contains("\"step\":20,"),
        "\"hfree\":(\\d+)");
    ValidateTraceCommandTest.Outcome s = validate("short-snap", edited);
    assertEquals(1, s.code(), s.out() + s.err());
    assertTrue(s.out().contains("breaks AllocAgreement after event "), s.out());
    assertEquals(snap, Integer.parseInt(s.out().replaceAll("(?s).*breaks AllocAgreement after event \\d+ of \\d+"
        + " \\(line (\\d+), .*", "$1")), s.out());
  }

  /** The lines of the last {@link #editFirst}. */
  private List<String> edited;

  /** Adds one to the number {@code field} captures on the first line {@code which} selects; returns its line. */
  private int editFirst(List<String> lines, java.util.function.Predicate<String> which, String field) {
    edited = new ArrayList<>(lines);
    Pattern p = Pattern.compile(field);
    for (int i = 1; i < edited.size(); i++) {
      Matcher m = p.matcher(edited.get(i));
      if (which.test(edited.get(i)) && m.find()) {
        long v = Long.parseLong(m.group(1));
        edited.set(i, edited.get(i).substring(0, m.start(1)) + (field.contains("hfree") ? v - 1 : v + 1)
            + edited.get(i).substring(m.end(1)));
        return i + 1;
      }
    }
    throw new AssertionError("no line to edit for " + field);
  }

  /**
   * B5 (fault unsynced_loading_check: loading_check pops the rank's own count of done load acks): the
   * simulator sees the ranks diverge; validate-trace rejects the first S123 whose pops are not the agreed
   * result.
   */
  @Test
  void aRunWhoseRanksPopTheirOwnCountIsRejectedAtThatSyncPoint() throws Exception {
    List<String> lines = traced("b5", "--version", "merged", "--cp", "2", "--tp", "1", "--steps", "300", "--seed",
        "7", "--data", "off", "--fault", "unsynced_loading_check");
    int first = 0;
    for (int i = 1; i < lines.size() && first == 0; i++) {
      Matcher res = Pattern.compile("\"res\":\\[\\d+,(\\d+)").matcher(lines.get(i));
      Matcher pop = Pattern.compile("\"pop\":\\[\\d+,(\\d+)").matcher(lines.get(i));
      if (res.find() && pop.find() && !res.group(1).equals(pop.group(1))) {
        first = i + 1;
      }
    }
    assertTrue(first > 0, "some rank popped a load count other than the MIN");
    ValidateTraceCommandTest.Outcome o = validate("b5", lines);
    assertEquals(1, o.code(), o.out() + o.err());
    assertTrue(o.out().contains(": rejected: "), o.out());
    assertEquals(eventOfLine(lines, first), eventAndLine(o.out())[0], "the event holding line " + first + ": "
        + o.out());
  }

  /** The goal runs: CP 2 x TP 2, 300 steps of the default workload. */
  @ParameterizedTest(name = "{0} {1} {2}")
  @EnabledIfSystemProperty(named = "hicache.trace.long", matches = "true")
  @CsvSource({
      "unified,   write_through,           timeout",
      "unified,   write_back,              wait_complete",
      "unified,   write_through_selective, best_effort",
      "merged,    write_through,           timeout",
      "merged,    write_back,              best_effort",
      "post20460, write_through_selective, wait_complete",
      "post20460, write_through,           timeout"})
  void goalRunsAreAccepted(String version, String write, String policy) throws Exception {
    List<String> lines = traced(version + "-" + write + "-" + policy, "--version", version, "--write-policy",
        write, "--policy", policy, "--steps", "300");
    ValidateTraceCommandTest.Outcome o = validate(version + "-" + write + "-" + policy, lines);
    assertEquals(0, o.code(), o.out() + o.err());
  }

  /**
   * PP 2 with storage, the simulator's own loop: stage 0 by every rule, the later stage (no sync point of its
   * own: it takes stage 0's decisions over the pipeline channel) through agreement at every RECV.
   */
  @ParameterizedTest(name = "{0} pp 2 cp {1}")
  @EnabledIfSystemProperty(named = "hicache.trace.long", matches = "true")
  @CsvSource({"unified, 2", "merged, 2", "post20460, 1"})
  void pipelineRunsWithStorageAreAccepted(String version, int cp) throws Exception {
    List<String> lines = traced("pp-" + version, "--version", version, "--pp", "2", "--cp", "" + cp, "--tp", "1",
        "--steps", "200", "--data", "off");
    ValidateTraceCommandTest.Outcome o = validate("pp-" + version, lines);
    assertEquals(0, o.code(), o.out() + o.err());
  }

  /** A slice of the Mooncake conversation trace at 4 ranks, validated in windows. */
  @Test
  @EnabledIfSystemProperty(named = "hicache.trace.long", matches = "true")
  void aMooncakeSliceIsAccepted() throws Exception {
    Path trace = Path.of(System.getProperty("hicache.root", ".."), "../shared/workloads/mooncake",
        "conversation_trace.jsonl");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(trace), "no Mooncake trace at " + trace);
    List<String> lines = traced("mooncake", "--workload", trace.toString(), "--requests", "100");
    ValidateTraceCommandTest.Outcome o = validate("mooncake", lines);
    assertEquals(0, o.code(), o.out() + o.err());
  }
}
