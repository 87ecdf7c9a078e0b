package dev.hicachesync.modelcheck.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.Simulator;
import dev.hicachesync.sim.SpecShaped;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import dev.hicachesync.trace.CollectiveRecord;
import dev.hicachesync.trace.NdjsonTraceRecorder;
import dev.hicachesync.trace.TraceReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Traces of the simulator itself ({@code Simulator} with a {@link SpecShaped} run, what {@code simulate
 * --trace} records) checked by TLC: seeded runs of the protocol as designed are accepted; a legacy
 * pre20460 run under CP breaks an invariant right where the simulator's own checker saw the ranks diverge;
 * one edited result or ack count is rejected at that event. {@code -Dhicache.trace.long=true} adds longer
 * runs (16–24 requests, 4 ranks, two replicas).
 */
class SimulatorTraceTest {

  record Run(SimResult result, List<String> lines) {}

  /** A spec-shaped run: {@code n} requests over {@code keys} keys of {@code pages} pages; device 2 keys, host 3. */
  static Run simulate(String version, int dp, int cp, int tp, long seed, int n, int keys, int pages) {
    SimConfig cfg = SimConfig.builder().topology(Topology.of(dp, cp, tp, 1))
        .version(ProtocolVersion.parse(version)).storage(StorageMode.OFF).seed(seed).steps(3L * n)
        .devicePages(2 * pages).hostPages(3 * pages).specShaped(SpecShaped.seeded(seed, n, keys, pages)).build();
    StringWriter out = new StringWriter();
    SimResult r = new Simulator(cfg, new NdjsonTraceRecorder(out)).run();
    return new Run(r, new ArrayList<>(out.toString().lines().toList()));
  }

  @ParameterizedTest(name = "{0} ({1},{2},{3}) seed {4}, {5} requests, {7} page(s) per key")
  // The default protocol at simulate's default topology, (1,2,2), is SimulateTraceCommandTest's, end to end.
  @CsvSource({
      "merged,    1, 2, 1, 1, 8, 4, 1",   // load-backs (S123 pops load acks)
      "post20460, 1, 2, 1, 2, 8, 4, 2",
      "pre20460,  1, 1, 2, 4, 8, 4, 1"})  // the legacy version is right without CP
  void seededSimulationsAreAccepted(String version, int dp, int cp, int tp, long seed, int n, int keys, int pages)
      throws Exception {
    Run run = simulate(version, dp, cp, tp, seed, n, keys, pages);
    assertNull(run.result().divergence(), "the simulator's own checks pass");
    Validation v = TraceValidationTest.validate("sim-" + version + "-" + cp + tp + "-seed" + seed, run.lines());
    assertEquals(Validation.Outcome.ACCEPTED, v.outcome(), TraceValidationTest.show(v));
    assertTrue(v.events() > 3 * n, "every request makes at least three events: " + v.events());
  }

  @ParameterizedTest(name = "{0} ({1},{2},{3}) seed {4}, {5} requests, {7} page(s) per key")
  @EnabledIfSystemProperty(named = "hicache.trace.long", matches = "true")
  @CsvSource({
      "merged,    1, 2, 2, 11, 16, 4, 2",
      "post20460, 1, 2, 2, 12, 16, 5, 1",
      "post20460, 2, 2, 1, 13, 24, 4, 1"})
  void longSeededSimulationsAreAccepted(String version, int dp, int cp, int tp, long seed, int n, int keys,
      int pages) throws Exception {
    seededSimulationsAreAccepted(version, dp, cp, tp, seed, n, keys, pages);
  }

  @Test
  void legacyPre20460UnderCpBreaksAnInvariantWhereTheRanksDiverged() throws Exception {
    Run run = simulate("pre20460", 1, 2, 1, 1, 8, 4, 1);
    var d = run.result().divergence();
    assertNotNull(d, "the simulator sees the ranks diverge (B1: no S1 collective under CP)");
    Validation v = TraceValidationTest.validate("sim-pre20460-cp2", run.lines());
    assertEquals(Validation.Outcome.INVARIANT_BROKEN, v.outcome(), TraceValidationTest.show(v));
    assertTrue(List.of("TreeAgreement", "AckAgreement").contains(v.invariant()), TraceValidationTest.show(v));
    // The RECV that ends the step in which the simulator saw the ranks pop differently: after it the ranks
    // are at a lockstep point with different trees, and the next RECV's snapshots differ.
    int recvOfThatStep = SpecEvents.merge(TraceReader.parse("x", run.lines())).stream()
        .filter(e -> e.first() instanceof CollectiveRecord c && c.site().equals("RECV") && c.step() == d.step())
        .findFirst().orElseThrow().number();
    SpecEvent at = v.event().orElseThrow();
    assertEquals(recvOfThatStep, at.number(), TraceValidationTest.show(v));
    assertEquals(d.step(), at.first().step());
    String disagreement = v.disagreement().orElseThrow();
    assertTrue(disagreement.startsWith("event " + (recvOfThatStep + 1) + " "), disagreement);
    assertTrue(disagreement.contains("rank " + d.rankA() + " ") && disagreement.contains("rank " + d.rankB() + " "),
        disagreement + " names ranks " + d.rankA() + " and " + d.rankB());
  }

  @ParameterizedTest(name = "edited {0}")
  @CsvSource({"res", "pop"})
  void oneEditedEventOfASimulatorTraceIsRejectedThere(String field) throws Exception {
    Run run = simulate("merged", 1, 2, 1, 1, 8, 4, 1);
    List<String> lines = run.lines();
    int line = TraceValidationTest.edit(lines, field);
    int event = TraceValidationTest.eventOfLine(lines, line);
    Validation v = TraceValidationTest.validate("sim-edited-" + field, lines);
    assertEquals(Validation.Outcome.REJECTED, v.outcome(), TraceValidationTest.show(v));
    assertEquals(event, v.event().orElseThrow().number(), "line " + line + ": " + TraceValidationTest.show(v));
    assertTrue(!v.allowed().isEmpty(), "names what the spec allowed there");
  }
}
