package dev.hicachesync.modelcheck.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.Simulator;
import dev.hicachesync.sim.spec.SpecShaped;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import dev.hicachesync.trace.ndjson.NdjsonTraceRecorder;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The simulator's spec-shaped runs in SGLang's normal event loop ({@code SpecShaped.inStep}, {@code simulate
 * --trace --trace-loop spec-in-step}): a request finishes at the end of the step that admitted it and its
 * write-through starts at insert. Their traces declare {@code finish_in_step} and {@code write_at_insert}, and
 * TLC accepts them against {@code HiCacheSync.tla} with the knob {@code finish_in_step}, storage off and on; an
 * edited line is rejected there.
 */
class InStepTraceTest {

  /** An in-step spec-shaped run: {@code n} requests over {@code keys} one-page keys; device 2 pages, host 3. */
  static List<String> simulate(String version, int cp, int tp, boolean storage, String policy, long seed, int n,
      int keys) {
    SimConfig cfg = SimConfig.builder().topology(Topology.of(1, cp, tp, 1)).version(ProtocolVersion.parse(version))
        .storage(storage ? StorageMode.MEMORY : StorageMode.OFF).prefetchPolicy(PrefetchPolicy.parse(policy))
        .seed(seed).steps(3L * n).devicePages(storage ? 1 : 2).hostPages(storage ? 2 : 3)
        .specShaped(SpecShaped.seeded(seed, n, keys, 1).inStep()).build();
    StringWriter out = new StringWriter();
    SimResult r = new Simulator(cfg, new NdjsonTraceRecorder(out)).run();
    assertNull(r.divergence(), "the simulator's own checks pass");
    return new ArrayList<>(out.toString().lines().toList());
  }

  @ParameterizedTest(name = "{0} (1,{1},{2}) storage {3} {4} seed {5}: {6} requests over {7} keys")
  @CsvSource({
      "merged,    2, 1, false, timeout,       1, 8, 4",
      "post20460, 1, 2, false, timeout,       2, 8, 4",
      "merged,    2, 1, true,  timeout,       3, 10, 4"})  // revokes and a storage hit (S7, S5), backups (S3)
  void inStepSimulationsAreAccepted(String version, int cp, int tp, boolean storage, String policy, long seed,
      int n, int keys) throws Exception {
    List<String> lines = simulate(version, cp, tp, storage, policy, seed, n, keys);
    assertTrue(lines.get(0).contains("\"finish_in_step\",\"write_at_insert\""), lines.get(0));
    assertTrue(lines.stream().anyMatch(l -> l.matches(".*\"site\":\"S1(23)?\".*\"pop\":\\[1.*")),
        "some write ack is popped");
    if (storage) {
      List<String> s7 = SimulatorTraceTest.s7Results(lines);
      assertTrue(s7.contains("0") && s7.contains("1"), "a revoke and a storage hit: " + s7);
    }
    Validation v = TraceValidationTest.validate("in-step-" + version + "-" + storage + "-seed" + seed, lines);
    assertEquals(Validation.Outcome.ACCEPTED, v.outcome(), TraceValidationTest.show(v));
    assertTrue(v.events() >= 2 * n, "every request makes at least a RECV and an event check: " + v.events());
  }

  @Test
  void anEditedPopCountIsRejectedThere() throws Exception {
    List<String> lines = simulate("merged", 2, 1, false, "timeout", 1, 8, 4);
    int line = TraceValidationTest.edit(lines, "pop");
    int event = TraceValidationTest.eventOfLine(lines, line);
    Validation v = TraceValidationTest.validate("in-step-edited-pop", lines);
    assertEquals(Validation.Outcome.REJECTED, v.outcome(), TraceValidationTest.show(v));
    assertEquals(event, v.event().orElseThrow().number(), "line " + line + ": " + TraceValidationTest.show(v));
  }
}
