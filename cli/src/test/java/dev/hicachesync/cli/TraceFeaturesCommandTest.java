package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.TestSpecs;
import dev.hicachesync.modelcheck.validate.TraceSpecDir;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The header's {@code Features} and which trace spec follows a trace: {@code simulate --trace} records the run
 * {@code simulate} makes without it (the simulator's own loop; its header lists what only {@code
 * TraceHiCacheRun.tla} follows: the workload's RECV, decode, aborts, shared prefixes, write-through at insert,
 * several running requests), and {@code validate-trace} checks it there; a hand-written header naming such a
 * feature goes there too; an unknown name is exit 2 in one line. A spec-shaped trace lists only features the model-shaped specs follow and is still accepted by them.
 */
class TraceFeaturesCommandTest {

  private static Path file(String name) throws Exception {
    Path f = TestSpecs.root().resolve("cli/target/trace-cli-test/" + name + ".ndjson");
    Files.createDirectories(f.getParent());
    return f;
  }

  /** The report without its timing (the one line two runs of the same seed may differ in) and the trace's line. */
  static List<String> report(CommandRun r) {
    return r.out().lines().filter(l -> !l.startsWith("trace: "))
        .map(l -> l.replaceFirst("^steps: (\\d+) in .*$", "steps: $1")).toList();
  }

  @Test
  void theSimulatorsOwnLoopIsTheSameRunAndTheRunModuleAcceptsIt() throws Exception {
    Path f = file("simulator-loop");
    List<String> args = List.of("--seed", "3", "--steps", "40", "--data", "off", "--version", "merged");
    CommandRun plain = CommandRun.of(new SimulateCommand(), args.toArray(String[]::new));
    List<String> traced = new java.util.ArrayList<>(args);
    traced.addAll(List.of("--trace", f.toString()));
    CommandRun sim = CommandRun.of(new SimulateCommand(), traced.toArray(String[]::new));
    assertEquals(0, sim.code(), sim.out() + sim.err());
    assertEquals(report(plain), report(sim), "--trace changes nothing but its own line");
    assertTrue(sim.out().contains("trace: " + f + " (this run, the simulator's own loop"), sim.out());
    List<String> lines = Files.readAllLines(f);
    assertTrue(lines.get(0).contains("\"Features\":[\"storage\",\"workload_recv\",\"decode\",\"aborts\","
        + "\"shared_prefixes\",\"write_at_insert\",\"several_running\"]"), lines.get(0));
    assertTrue(lines.size() > 40, "events of the simulator's loop were recorded: " + lines.size());
    assertTrue(lines.stream().anyMatch(l -> l.contains("\"site\":\"S7\"")), "S7 on the prefetch thread's groups");
    assertTrue(lines.stream().anyMatch(l -> l.contains("\"site\":\"RECV\"") && l.contains("\"dig\":")),
        "RECV carries the rank's snapshot and digest");

    ValidateTraceCommandTest.Outcome o = ValidateTraceCommandTest.run(f.toString());
    assertEquals(0, o.code(), o.out() + o.err());
    assertTrue(o.out().contains(": accepted: all ") && o.out().contains("(TraceHiCacheRun) (merged"), o.out());
  }

  @Test
  void anUnknownTraceLoopIsExitTwoInOneLine() throws Exception {
    CommandRun sim = CommandRun.of(new SimulateCommand(), "--trace", file("bogus-loop").toString(), "--trace-loop",
        "bogus");
    assertEquals(2, sim.code(), sim.out() + sim.err());
    assertEquals("hicache-sync simulate: --trace-loop must be spec, spec-in-step or simulator, got 'bogus'", sim.err().strip());
  }

  @Test
  void aFeatureOnlyTheRunModuleFollowsGoesThereAndAnUnknownOneIsExitTwo() throws Exception {
    List<String> hand = ValidateTraceCommandTest.hand();
    String header = hand.get(0);
    assertFalse(header.contains("Features"), "the hand-written fixture predates the field");

    hand.set(0, header.replace("}", ",\"Features\":[\"storage\",\"decode\"]}"));
    ValidateTraceCommandTest.Outcome decode = ValidateTraceCommandTest.run(file("feature-decode", hand).toString());
    assertEquals(0, decode.code(), decode.out() + decode.err());
    assertTrue(decode.out().contains("(TraceHiCacheRun) (post20460"), decode.out());

    hand.set(0, header.replace("\"WritePolicy\":\"write_through\"", "\"WritePolicy\":\"write_back\""));
    ValidateTraceCommandTest.Outcome wb = ValidateTraceCommandTest.run(file("feature-wb", hand).toString());
    assertEquals(0, wb.code(), wb.out() + wb.err());
    assertTrue(wb.out().contains("(TraceHiCacheRun) (post20460"), wb.out());

    hand.set(0, header.replace("}", ",\"Features\":[\"teleport\"]}"));
    ValidateTraceCommandTest.assertOneLine(ValidateTraceCommandTest.run(file("feature-unknown", hand).toString()),
        2, "feature-unknown.ndjson:1: field 'Features' names unknown feature \"teleport\"");
  }

  @Test
  void aFeatureTheSpecFollowsIsAccepted() throws Exception {
    List<String> hand = ValidateTraceCommandTest.hand();
    hand.set(0, hand.get(0).replace("}", ",\"Features\":[\"storage\"]}"));
    ValidateTraceCommandTest.Outcome o = ValidateTraceCommandTest.run(file("feature-storage", hand).toString(),
        "--spec-dir", TraceSpecDir.get().toString());
    assertEquals(0, o.code(), o.out() + o.err());
  }

  /**
   * {@code --trace-loop spec-in-step}: SGLang's normal event loop, spec-shaped; its header declares
   * finish_in_step and write_at_insert, and validate-trace accepts it (the spec's knob finish_in_step). The
   * same header without finish_in_step goes to TraceHiCacheRun.tla (write-through at insert is a loop of
   * HiCacheSync.tla's only with it).
   */
  @Test
  void theInStepLoopIsTracedAndAcceptedAndWriteAtInsertAloneGoesToTheRunModule() throws Exception {
    Path f = file("in-step-loop");
    CommandRun sim = CommandRun.of(new SimulateCommand(), "--seed", "3", "--cp", "2", "--tp", "1", "--trace",
        f.toString(), "--trace-loop", "spec-in-step");
    assertEquals(0, sim.code(), sim.out() + sim.err());
    List<String> lines = Files.readAllLines(f);
    assertTrue(lines.get(0).contains("\"Features\":[\"finish_in_step\",\"write_at_insert\"]"), lines.get(0));
    ValidateTraceCommandTest.Outcome o = ValidateTraceCommandTest.run(f.toString(), "--spec-dir",
        TraceSpecDir.get().toString());
    assertEquals(0, o.code(), o.out() + o.err());

    // Without finish_in_step, write-through at insert is no loop of HiCacheSync.tla's: the run module checks it.
    lines.set(0, lines.get(0).replace("\"finish_in_step\",", ""));
    ValidateTraceCommandTest.Outcome alone = ValidateTraceCommandTest.run(file("write-at-insert-alone", lines)
        .toString());
    assertEquals(0, alone.code(), alone.out() + alone.err());
    assertTrue(alone.out().contains("(TraceHiCacheRun)"), alone.out());
  }

  /** {@code --trace-aborts}: a spec-shaped run with aborts is accepted; without --trace-loop spec, exit 2. */
  @Test
  void traceAbortsIsAcceptedSpecShapedAndRefusedWithTheSimulatorsLoop() throws Exception {
    Path f = file("aborts");
    CommandRun sim = CommandRun.of(new SimulateCommand(), "--seed", "3", "--cp", "2", "--tp", "1", "--storage",
        "memory", "--device-pages", "1", "--host-pages", "2", "--trace-requests", "10", "--trace", f.toString(),
        "--trace-loop", "spec", "--trace-aborts");
    assertEquals(0, sim.code(), sim.out() + sim.err());
    assertTrue(sim.out().contains("aborted 3"), sim.out());
    List<String> lines = Files.readAllLines(f);
    assertTrue(lines.get(0).contains("\"Features\":[\"storage\",\"aborts\"]"), lines.get(0));
    assertTrue(lines.stream().anyMatch(l -> l.contains("\"site\":\"S6\"")), "an abort meets S6");
    ValidateTraceCommandTest.Outcome o = ValidateTraceCommandTest.run(f.toString(), "--spec-dir",
        TraceSpecDir.get().toString());
    assertEquals(0, o.code(), o.out() + o.err());

    CommandRun refused = CommandRun.of(new SimulateCommand(), "--trace", file("aborts-sim").toString(),
        "--trace-aborts");
    assertEquals(2, refused.code(), refused.out() + refused.err());
    assertEquals("hicache-sync simulate: --trace-aborts shapes a spec-shaped trace: add --trace-loop spec (or"
        + " spec-in-step); --trace alone records the simulator's own run, unchanged", refused.err().strip());
  }

  private static Path file(String name, List<String> lines) throws Exception {
    Path f = file(name);
    Files.write(f, lines);
    return f;
  }
}
