package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.TestSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * {@code simulate --processes --trace}: each rank process writes its own lines and the launcher merges them.
 * The run is the same as without {@code --trace} (the report line for line but the trace's own line and the wall
 * time) and as the in-JVM run; the merged trace has the in-JVM trace's header and each rank's lines in the
 * in-JVM trace's order, and every collective's first line after its members' earlier lines
 * ({@link RankTraceMergeTest#orderViolation}); validate-trace accepts it and rejects it with one result edited.
 */
class ProcessesTraceCommandTest {

  private static Path file(String name) throws Exception {
    Path f = TestSpecs.root().resolve("modelcheck/target/trace-cli-test/procs-" + name + ".ndjson");
    Files.createDirectories(f.getParent());
    return f;
  }

  private static List<String> with(String[] base, String... more) {
    List<String> all = new ArrayList<>(List.of(base));
    all.addAll(List.of(more));
    return all;
  }

  private static CommandRun simulate(List<String> args) {
    return CommandRun.of(new SimulateCommand(), args.toArray(String[]::new));
  }

  /**
   * Runs {@code args} in this JVM without and with {@code --trace}, then as processes with {@code --trace};
   * checks the three are one run and the two traces one trace; returns the merged trace's lines.
   */
  private static List<String> tracedAsProcesses(String name, String... args) throws Exception {
    CommandRun plain = simulate(with(args));
    Path jvm = file(name + "-jvm");
    CommandRun inJvm = simulate(with(args, "--trace", jvm.toString()));
    Path merged = file(name);
    CommandRun procs = simulate(with(args, "--processes", "--trace", merged.toString()));
    assertEquals(plain.code(), procs.code(), procs.out() + procs.err());
    assertEquals(TraceFeaturesCommandTest.report(plain), TraceFeaturesCommandTest.report(procs),
        "--processes --trace is the run without them");
    assertTrue(procs.out().contains("trace: " + merged + " (this run"), procs.out());
    List<String> a = Files.readAllLines(jvm);
    List<String> b = Files.readAllLines(merged);
    assertEquals(a.get(0), b.get(0), "the in-JVM run's header");
    assertEquals(a.size(), b.size());
    assertEquals(RankTraceMergeTest.byRank(a), RankTraceMergeTest.byRank(b), "each rank's lines, in its order");
    assertNull(RankTraceMergeTest.orderViolation(b));
    assertEquals(0, inJvm.code());
    return b;
  }

  @Test
  void aWorldOfTwoProcessesTracesTheSameRunAndValidateTraceAcceptsIt() throws Exception {
    List<String> lines = tracedAsProcesses("cp2tp1", "--version", "merged", "--cp", "2", "--tp", "1", "--steps",
        "60", "--seed", "5", "--storage", "file", "--data", "off");
    ValidateTraceCommandTest.Outcome ok = RunTraceCommandTest.validate("procs-cp2tp1", lines);
    assertEquals(0, ok.code(), ok.out() + ok.err());
    assertTrue(ok.out().contains(": accepted: all ") && ok.out().contains("(TraceHiCacheRun) (merged"), ok.out());
    // One member's result of the first S123 that agreed a write ack, one more: no MIN gives it.
    List<String> edited = new ArrayList<>(lines);
    int i = 1;
    while (!(edited.get(i).contains("\"site\":\"S123\"") && edited.get(i).matches(".*\"res\":\\[[1-9].*"))) {
      i++;
    }
    String l = edited.get(i);
    int at = l.indexOf("\"res\":[") + 7;
    int end = l.indexOf(',', at);
    edited.set(i, l.substring(0, at) + (Long.parseLong(l.substring(at, end)) + 1) + l.substring(end));
    ValidateTraceCommandTest.Outcome bad = RunTraceCommandTest.validate("procs-cp2tp1-edited", edited);
    assertEquals(1, bad.code(), bad.out() + bad.err());
    assertTrue(bad.out().contains(": rejected: ") && bad.out().contains("(line " + (i + 1) + ", "), bad.out());
  }

  /** Four JVMs: in the long tier ({@code -Dhicache.trace.long=true}) to keep CI within its time. */
  @Test
  @EnabledIfSystemProperty(named = "hicache.trace.long", matches = "true")
  void aWorldOfFourProcessesWithStorageTracesTheSameRunAndValidateTraceAcceptsIt() throws Exception {
    // unified (the default), CP 2 x TP 2: attn_cp groups of two ranks each beside the domain's collectives
    List<String> lines = tracedAsProcesses("cp2tp2", "--cp", "2", "--tp", "2", "--steps", "40", "--seed", "5",
        "--storage", "file");
    ValidateTraceCommandTest.Outcome ok = RunTraceCommandTest.validate("procs-cp2tp2", lines);
    assertEquals(0, ok.code(), ok.out() + ok.err());
    assertTrue(ok.out().contains(": accepted: all ") && ok.out().contains("(TraceHiCacheRun) (unified"), ok.out());
  }

  @Test
  void aKilledRankWithATraceIsRefusedInOneLine() {
    CommandRun r = simulate(List.of("--processes", "--storage", "off", "--steps", "10", "--kill-rank", "1@3",
        "--trace", "target/never.ndjson"));
    assertEquals(Main.EXIT_BAD_INPUT, r.code());
    assertTrue(r.err().contains("--kill-rank and --trace do not go together"), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
  }
}
