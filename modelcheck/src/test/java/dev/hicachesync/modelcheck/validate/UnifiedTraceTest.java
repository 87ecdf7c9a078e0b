package dev.hicachesync.modelcheck.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.sim.datapath.DataOptions;
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
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Traces of version {@code unified} ({@code simulate --version unified --trace}: the Java {@code unified}
 * controller under {@code LoopShape.specUnified}, each rank's store seeded by the run's seed) checked by TLC
 * against {@code spec/TraceHiCacheUnified.tla}: seeded runs are accepted, with storage hits read and inserted
 * through the completion sync and the ack drain, and revokes where one rank's S7 finds nothing; a trace line
 * edited is rejected at its event. {@code -Dhicache.trace.long=true} adds CP 2 x TP 2, best_effort and 8 requests.
 */
class UnifiedTraceTest {

  record Run(SimResult result, List<String> lines) {}

  /** A spec-shaped unified run of {@code n} requests (keys 1..n, one page each), pools of n pages. */
  static Run simulate(int cp, int tp, String policy, boolean storage, long seed, int n) {
    return simulate(cp, tp, policy, storage, seed, n, 0.01);
  }

  /** As above, a storage read batch failing with probability {@code readFailure} on each rank. */
  static Run simulate(int cp, int tp, String policy, boolean storage, long seed, int n, double readFailure) {
    SimConfig cfg = SimConfig.builder().topology(Topology.of(1, cp, tp, 1)).version(ProtocolVersion.UNIFIED)
        .readFailure(readFailure)
        .storage(storage ? StorageMode.MEMORY : StorageMode.OFF).prefetchPolicy(PrefetchPolicy.parse(policy))
        .writePolicy(WritePolicy.WRITE_BACK).data(DataOptions.OFF).seed(seed).steps(5L * n + 4)
        .devicePages(n).hostPages(n).specShaped(SpecShaped.distinct(n)).build();
    StringWriter out = new StringWriter();
    SimResult r = new Simulator(cfg, new NdjsonTraceRecorder(out)).run();
    return new Run(r, new ArrayList<>(out.toString().lines().toList()));
  }

  /** Rank 0's S7 results in order (the MIN of the ranks' storage hits: 0 revokes at the hit drain). */
  static List<String> s7Results(List<String> lines) {
    return SimulatorTraceTest.s7Results(lines);
  }

  @ParameterizedTest(name = "unified (1,{0},{1}) {2} storage {3} seed {4}, {5} requests, read failure {6}")
  @CsvSource({
      // seed 1: S7 results 0, 1, 0 (rank 1's store lacks keys 1 and 3): revokes, and a hit read, synced,
      // drained and inserted at its final ack
      "2, 1, timeout,       true,  1, 3, 0.01",
      // the same hit's read fails on rank 1 only: the completion sync's MIN is 0, nothing is inserted and the
      // slot goes back through the release queue on both ranks
      "2, 1, timeout,       true,  1, 3, 0.5",
      "1, 2, wait_complete, true,  6, 3, 0.01",   // S7 results 1, 0, 1: wait_complete completes at the ack drain
      "2, 1, timeout,       false, 1, 3, 0.01"})  // storage off: S123 of length 4, no S4
  void seededUnifiedRunsAreAccepted(int cp, int tp, String policy, boolean storage, long seed, int n,
      double readFailure) throws Exception {
    Run run = simulate(cp, tp, policy, storage, seed, n, readFailure);
    assertNull(run.result().divergence(), "the simulator's own checks pass");
    List<String> s7 = s7Results(run.lines());
    if (storage) {
      assertTrue(s7.contains("0") && s7.contains("1"), "a revoke and a storage hit: " + s7);
    }
    if (readFailure > 0.1) {
      assertTrue(run.lines().stream().anyMatch(l -> l.contains("\"site\":\"S5\"") && l.contains("\"val\":[0]")),
          "a read that failed on one rank");
    }
    Validation v = TraceValidationTest.validate("unified-" + cp + tp + "-" + policy + "-" + storage + "-seed" + seed
        + "-rf" + readFailure, run.lines());
    assertEquals(Validation.Outcome.ACCEPTED, v.outcome(), TraceValidationTest.show(v));
    assertTrue(v.events() >= 2 * n, "RECV and S123 per request at least: " + v.events());
  }

  @ParameterizedTest(name = "unified (1,{0},{1}) {2} seed {3}, {4} requests")
  @EnabledIfSystemProperty(named = "hicache.trace.long", matches = "true")
  @CsvSource({
      "2, 2, timeout,     2, 3",   // four ranks: 18,604 distinct states, 108 s at load 26
      "2, 1, best_effort, 2, 4",
      "2, 1, timeout,     1, 8"})
  void longUnifiedRunsAreAccepted(int cp, int tp, String policy, long seed, int n) throws Exception {
    Run run = simulate(cp, tp, policy, true, seed, n);
    assertNull(run.result().divergence(), "the simulator's own checks pass");
    Validation v = TraceValidationTest.validate("unified-long-" + cp + tp + "-" + policy + "-seed" + seed,
        run.lines());
    assertEquals(Validation.Outcome.ACCEPTED, v.outcome(), TraceValidationTest.show(v));
  }

  /**
   * One rank's S7 value edited from 1 to 0 (its store "lacks" the page) while every line keeps the MIN 1
   * the ranks received: no behaviour of HiCacheUnified posts 0 and gets 1 back, so validation stops there.
   */
  @Test
  void anEditedS7ValueIsRejectedAtThatEvent() throws Exception {
    List<String> lines = simulate(2, 1, "timeout", true, 1, 3).lines();
    int line = 0;
    for (int i = 1; i < lines.size() && line == 0; i++) {
      String l = lines.get(i);
      if (l.contains("\"site\":\"S7\"") && l.contains("\"val\":[1]") && l.contains("\"res\":[1]")) {
        lines.set(i, l.replace("\"val\":[1]", "\"val\":[0]"));
        line = i + 1;
      }
    }
    assertTrue(line > 0, "the run reads a storage hit");
    int event = TraceValidationTest.eventOfLine(lines, line);
    Validation v = TraceValidationTest.validate("unified-edited-s7", lines);
    assertEquals(Validation.Outcome.REJECTED, v.outcome(), TraceValidationTest.show(v));
    assertEquals(event, v.event().orElseThrow().number(), "line " + line + ": " + TraceValidationTest.show(v));
  }

  /**
   * The release count of an S123 edited on every rank (value and result), as if the final ack had sent
   * the kept page back too: the spec has no page to release there (HostSlotSafety's accounting), so the
   * event is rejected although the ranks agree with each other.
   */
  @Test
  void anAgreedButWrongReleaseCountIsRejected() throws Exception {
    List<String> lines = simulate(2, 1, "timeout", true, 1, 3).lines();
    // the S123 that drains the hit's final ack: [w, l, hit, ack = 1, bka, rel = 0, d, -d]
    String from = "\"val\":[0,0,0,1,0,0,";
    int edited = 0;
    int first = 0;
    for (int i = 1; i < lines.size(); i++) {
      String l = lines.get(i);
      if (l.contains("\"site\":\"S123\"") && l.contains(from) && (first == 0 || edited < 2)) {
        lines.set(i, l.replace(from, "\"val\":[0,0,0,1,0,1,").replace("\"res\":[0,0,0,1,0,0,",
            "\"res\":[0,0,0,1,0,1,"));
        first = first == 0 ? i + 1 : first;
        edited++;
      }
    }
    assertEquals(2, edited, "both ranks' lines of the final-ack drain");
    Validation v = TraceValidationTest.validate("unified-edited-release", lines);
    assertEquals(Validation.Outcome.REJECTED, v.outcome(), TraceValidationTest.show(v));
    assertEquals(TraceValidationTest.eventOfLine(lines, first), v.event().orElseThrow().number(),
        TraceValidationTest.show(v));
  }
}
