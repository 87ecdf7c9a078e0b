package dev.hicachesync.modelcheck.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import dev.hicachesync.trace.CollectiveRecord;
import dev.hicachesync.trace.ndjson.NdjsonTraceRecorder;
import dev.hicachesync.trace.ndjson.TraceReader;
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
 * one edited result or ack count is rejected at that event. With L3 storage on (prefetch: S7 revokes and
 * hits, S4, S5 inserts, slots released at S7 and S5) seeded runs are accepted too, and an edited S7 result is
 * rejected there. {@code -Dhicache.trace.long=true} adds longer runs (16–24 requests, 4 ranks, two replicas;
 * storage on at (1,2,2) and pre20460 (1,1,2)).
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

  /**
   * A spec-shaped run with storage on: {@code n} requests over {@code keys} one-page keys; device 1 key and
   * host 2, so that backed-up keys are evicted from host and prefetched back from storage.
   */
  static Run simulateStorage(String version, int cp, int tp, String policy, long seed, int n, int keys) {
    SimConfig cfg = SimConfig.builder().topology(Topology.of(1, cp, tp, 1))
        .version(ProtocolVersion.parse(version)).storage(StorageMode.MEMORY)
        .prefetchPolicy(PrefetchPolicy.parse(policy)).seed(seed).steps(3L * n).devicePages(1).hostPages(2).specShaped(SpecShaped.seeded(seed, n, keys, 1)).build();
    StringWriter out = new StringWriter();
    SimResult r = new Simulator(cfg, new NdjsonTraceRecorder(out)).run();
    return new Run(r, new ArrayList<>(out.toString().lines().toList()));
  }

  /** The S7 results rank 0 logged, in order (MIN pages of a storage hit; 0 means revoked). */
  static List<String> s7Results(List<String> lines) {
    return lines.stream().filter(l -> l.contains("\"site\":\"S7\"") && l.contains("\"r\":0,"))
        .map(l -> l.replaceAll(".*\"res\":\\[(\\d+)\\].*", "$1")).toList();
  }

  @ParameterizedTest(name = "storage on: {0} (1,{1},{2}) {3} seed {4}, {5} requests over {6} keys")
  // hit = the run must read a storage hit (else revokes only: cheaper to check on 4 ranks).
  @CsvSource({
      // seed 3: with LRU victims seed 1 no longer reads a hit; seed 3 revokes three times, then hits
      "merged,    2, 1, timeout,       3, 10, 4, true",   // revokes, a hit read and inserted at S5
      "post20460, 2, 1, wait_complete, 3, 10, 4, true"})  // best_effort: SimulateTraceCommandTest, via the CLI
  void storageOnSimulationsAreAccepted(String version, int cp, int tp, String policy, long seed, int n, int keys,
      boolean hit) throws Exception {
    Run run = simulateStorage(version, cp, tp, policy, seed, n, keys);
    assertNull(run.result().divergence(), "the simulator's own checks pass");
    List<String> s7 = s7Results(run.lines());
    assertTrue(s7.contains("0") && (!hit || s7.contains("1")), "a revoke" + (hit ? " and a storage hit: " : ": ")
        + s7);
    Validation v = TraceValidationTest.validate("sim-storage-" + version + "-" + policy + "-seed" + seed,
        run.lines());
    assertEquals(Validation.Outcome.ACCEPTED, v.outcome(), TraceValidationTest.show(v));
  }

  @ParameterizedTest(name = "storage on: {0} (1,{1},{2}) {3} seed {4}, {5} requests over {6} keys")
  @EnabledIfSystemProperty(named = "hicache.trace.long", matches = "true")
  @CsvSource({
      "merged,    2, 1, best_effort,   6, 10, 4, true",   // S5 before S7: the hit's slots go back at S7 too
      "pre20460,  1, 2, timeout,       1, 10, 4, true",
      "merged,    2, 2, timeout,       1, 10, 4, false"})  // S4, S5, S7 split over the grid like S123
  void longStorageOnSimulationsAreAccepted(String version, int cp, int tp, String policy, long seed, int n,
      int keys, boolean hit) throws Exception {
    storageOnSimulationsAreAccepted(version, cp, tp, policy, seed, n, keys, hit);
  }

  @Test
  void anEditedS7ResultOfAStorageOnTraceIsRejectedThere() throws Exception {
    List<String> lines = simulateStorage("merged", 2, 1, "timeout", 1, 10, 4).lines();
    int line = 0;
    for (int i = 1; i < lines.size() && line == 0; i++) {
      String l = lines.get(i);
      if (l.contains("\"site\":\"S7\"") && l.contains("\"res\":[0]")) {
        lines.set(i, l.replace("\"res\":[0]", "\"res\":[1]")); // a hit where the MIN says revoke
        line = i + 1;
      }
    }
    assertTrue(line > 0, "the run revokes a prefetch");
    int event = TraceValidationTest.eventOfLine(lines, line);
    Validation v = TraceValidationTest.validate("sim-storage-edited-s7", lines);
    assertEquals(Validation.Outcome.REJECTED, v.outcome(), TraceValidationTest.show(v));
    assertEquals(event, v.event().orElseThrow().number(), "line " + line + ": " + TraceValidationTest.show(v));
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
