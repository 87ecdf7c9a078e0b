package dev.hicachesync.modelcheck.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Ranks built only through the public API ({@link EngineRunLoop}: {@code HiCacheRank.builder}, storage on, the
 * engine's own loop of several running requests with decode steps and shared prefixes, waiting on {@code
 * runPrefetchThread} before its event check) record a trace that {@code spec/TraceHiCacheRun.tla} accepts; the
 * same trace with one rank's S7 local hit raised above the MIN the domain agreed on is rejected at that S7.
 */
class EngineRunTraceTest {

  @ParameterizedTest(name = "{0} (1,{1},{2}) {3} seed {4}")
  @CsvSource({
      "merged,  2, 1, timeout, 3",
      "unified, 1, 2, timeout, 4"})
  void anEnginesOwnLoopWithStorageIsAccepted(String version, int cp, int tp, String policy, long seed)
      throws Exception {
    List<String> lines = EngineRunLoop.record(version, cp, tp, policy, seed, 24, 40, 8, 12);
    assertTrue(lines.stream().anyMatch(l -> l.contains("\"site\":\"S7\"")), "storage prefetches were queried");
    Validation v = TraceValidationTest.validate("engine-run-" + version + "-seed" + seed, lines);
    assertEquals(Validation.Outcome.ACCEPTED, v.outcome(), TraceValidationTest.show(v));
  }
}
