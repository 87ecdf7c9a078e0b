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
 * The header's {@code Features}: a trace of the simulator's own scheduler ({@code simulate --trace
 * --trace-loop simulator}) lists what the spec cannot follow, and {@code validate-trace} refuses it with
 * exit 2 and one line naming the feature; so does a hand-written header naming one, or implying one
 * (write_back; PP 2 is followed by TraceHiCachePipeline.tla, PipelineTraceCommandTest). A spec-shaped trace lists only features the spec follows and is still accepted.
 */
class TraceFeaturesCommandTest {

  private static Path file(String name) throws Exception {
    Path f = TestSpecs.root().resolve("cli/target/trace-cli-test/" + name + ".ndjson");
    Files.createDirectories(f.getParent());
    return f;
  }

  @Test
  void theSimulatorsOwnLoopIsTracedAndRefusedByFeature() throws Exception {
    Path f = file("simulator-loop");
    CommandRun sim = CommandRun.of(new SimulateCommand(), "--seed", "3", "--steps", "40", "--data", "off",
        "--trace", f.toString(), "--trace-loop", "simulator");
    assertEquals(0, sim.code(), sim.out() + sim.err());
    assertTrue(sim.out().contains("the simulator's own scheduler"), sim.out());
    List<String> lines = Files.readAllLines(f);
    assertTrue(lines.get(0).contains("\"Features\":[\"storage\",\"workload_recv\",\"decode\",\"aborts\","
        + "\"shared_prefixes\",\"write_at_insert\",\"several_running\"]"), lines.get(0));
    assertTrue(lines.size() > 40, "events of the simulator's loop were recorded: " + lines.size());
    assertTrue(lines.stream().anyMatch(l -> l.contains("\"site\":\"S7\"")), "S7 on the prefetch thread's groups");

    ValidateTraceCommandTest.Outcome o = ValidateTraceCommandTest.run(f.toString());
    ValidateTraceCommandTest.assertOneLine(o, 2, "the trace uses feature 'workload_recv', which the spec cannot"
        + " follow: ");
  }

  @Test
  void anUnknownTraceLoopIsExitTwoInOneLine() throws Exception {
    CommandRun sim = CommandRun.of(new SimulateCommand(), "--trace", file("bogus-loop").toString(), "--trace-loop",
        "bogus");
    assertEquals(2, sim.code(), sim.out() + sim.err());
    assertEquals("hicache-sync simulate: --trace-loop must be spec, spec-in-step or simulator, got 'bogus'", sim.err().strip());
  }

  @Test
  void aDeclaredOrImpliedFeatureTheSpecCannotFollowIsExitTwo() throws Exception {
    List<String> hand = ValidateTraceCommandTest.hand();
    String header = hand.get(0);
    assertFalse(header.contains("Features"), "the hand-written fixture predates the field");

    hand.set(0, header.replace("}", ",\"Features\":[\"storage\",\"decode\"]}"));
    ValidateTraceCommandTest.assertOneLine(ValidateTraceCommandTest.run(file("feature-decode", hand).toString()),
        2, "feature 'decode', which the spec cannot follow: the spec's requests have no output tokens");

    hand.set(0, header.replace("\"WritePolicy\":\"write_through\"", "\"WritePolicy\":\"write_back\""));
    ValidateTraceCommandTest.assertOneLine(ValidateTraceCommandTest.run(file("feature-wb", hand).toString()),
        2, "feature 'write_back'");

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
   * same header without finish_in_step is refused by name (exit 2): write-through at insert is followable
   * only with it.
   */
  @Test
  void theInStepLoopIsTracedAndAcceptedAndWriteAtInsertAloneIsRefused() throws Exception {
    Path f = file("in-step-loop");
    CommandRun sim = CommandRun.of(new SimulateCommand(), "--seed", "3", "--cp", "2", "--tp", "1", "--trace",
        f.toString(), "--trace-loop", "spec-in-step");
    assertEquals(0, sim.code(), sim.out() + sim.err());
    List<String> lines = Files.readAllLines(f);
    assertTrue(lines.get(0).contains("\"Features\":[\"finish_in_step\",\"write_at_insert\"]"), lines.get(0));
    ValidateTraceCommandTest.Outcome o = ValidateTraceCommandTest.run(f.toString(), "--spec-dir",
        TraceSpecDir.get().toString());
    assertEquals(0, o.code(), o.out() + o.err());

    lines.set(0, lines.get(0).replace("\"finish_in_step\",", ""));
    ValidateTraceCommandTest.assertOneLine(ValidateTraceCommandTest.run(file("write-at-insert-alone", lines)
        .toString()), 2, "the trace uses feature 'write_at_insert', which the spec cannot follow: ");
  }

  /** {@code --trace-aborts}: a spec-shaped run with aborts is accepted; with the simulator's own loop, exit 2. */
  @Test
  void traceAbortsIsAcceptedSpecShapedAndRefusedWithTheSimulatorsLoop() throws Exception {
    Path f = file("aborts");
    CommandRun sim = CommandRun.of(new SimulateCommand(), "--seed", "3", "--cp", "2", "--tp", "1", "--storage",
        "memory", "--device-pages", "1", "--host-pages", "2", "--trace-requests", "10", "--trace", f.toString(),
        "--trace-aborts");
    assertEquals(0, sim.code(), sim.out() + sim.err());
    assertTrue(sim.out().contains("aborted 3"), sim.out());
    List<String> lines = Files.readAllLines(f);
    assertTrue(lines.get(0).contains("\"Features\":[\"storage\",\"aborts\"]"), lines.get(0));
    assertTrue(lines.stream().anyMatch(l -> l.contains("\"site\":\"S6\"")), "an abort meets S6");
    ValidateTraceCommandTest.Outcome o = ValidateTraceCommandTest.run(f.toString(), "--spec-dir",
        TraceSpecDir.get().toString());
    assertEquals(0, o.code(), o.out() + o.err());

    CommandRun refused = CommandRun.of(new SimulateCommand(), "--trace", file("aborts-sim").toString(),
        "--trace-loop", "simulator", "--trace-aborts");
    assertEquals(2, refused.code(), refused.out() + refused.err());
    assertEquals("hicache-sync simulate: --trace-aborts needs a spec-shaped --trace-loop (spec or spec-in-step)",
        refused.err().strip());
  }

  private static Path file(String name, List<String> lines) throws Exception {
    Path f = file(name);
    Files.write(f, lines);
    return f;
  }
}
