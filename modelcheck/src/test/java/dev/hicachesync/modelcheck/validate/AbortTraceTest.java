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
 * Aborted waiting requests in spec-shaped runs ({@code SpecShaped.withAborts}, {@code simulate --trace
 * --trace-aborts}): with storage on a request waits for its prefetch, and an abort one step after its arrival
 * meets it there: S6's barrier, its host slots released ({@code release_aborted_request}). The trace declares
 * {@code aborts}, and TLC accepts it against {@code HiCacheSync.tla} with the knob {@code abort} (the spec's
 * AbortArrives, unlogged, as every environment step); a trace whose S6 lines are removed is rejected.
 */
class AbortTraceTest {

  static List<String> simulate(String version, boolean inStep, String policy, long seed, int n, int keys) {
    SpecShaped shape = SpecShaped.seeded(seed, n, keys, 1).withAborts(seed);
    SimConfig cfg = SimConfig.builder().topology(Topology.of(1, 2, 1, 1)).version(ProtocolVersion.parse(version))
        .storage(StorageMode.MEMORY).prefetchPolicy(PrefetchPolicy.parse(policy)).seed(seed).steps(3L * n)
        .devicePages(1).hostPages(2).specShaped(inStep ? shape.inStep() : shape).build();
    StringWriter out = new StringWriter();
    SimResult r = new Simulator(cfg, new NdjsonTraceRecorder(out)).run();
    assertNull(r.divergence(), "the simulator's own checks pass");
    return new ArrayList<>(out.toString().lines().toList());
  }

  @ParameterizedTest(name = "{0} in-step {1} {2} seed {3}: {4} requests over {5} keys")
  @CsvSource({
      "merged,    false, timeout,       3, 10, 4",
      "post20460, true,  wait_complete, 3, 10, 4"})
  void abortedRequestsAreFollowed(String version, boolean inStep, String policy, long seed, int n, int keys)
      throws Exception {
    List<String> lines = simulate(version, inStep, policy, seed, n, keys);
    assertTrue(lines.get(0).contains("\"aborts\""), lines.get(0));
    assertTrue(lines.stream().anyMatch(l -> l.contains("\"site\":\"S6\"")), "some abort meets its S6 barrier");
    Validation v = TraceValidationTest.validate("aborts-" + version + "-" + inStep + "-seed" + seed, lines);
    assertEquals(Validation.Outcome.ACCEPTED, v.outcome(), TraceValidationTest.show(v));
  }

  @Test
  void withoutItsS6LinesTheTraceIsRejected() throws Exception {
    List<String> lines = simulate("merged", false, "timeout", 3, 10, 4);
    assertTrue(lines.removeIf(l -> l.contains("\"site\":\"S6\"")), "the run has an S6");
    Validation v = TraceValidationTest.validate("aborts-without-s6", lines);
    assertEquals(Validation.Outcome.REJECTED, v.outcome(), TraceValidationTest.show(v));
  }
}
