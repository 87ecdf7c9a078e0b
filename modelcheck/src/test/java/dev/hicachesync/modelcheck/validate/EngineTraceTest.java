package dev.hicachesync.modelcheck.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.api.StepOrder.Finish;
import dev.hicachesync.trace.TraceFeature;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The trace of ranks an engine builds through the public API ({@link EngineLoop}: {@code
 * HiCacheRank.Builder.trace}, the built-in stepped environment, write-through at insert) is a behaviour of
 * {@code HiCacheSync.tla} with the knob {@code finish_in_step}, checked by TLC through {@code validate-trace}'s
 * validator; an edited line, the same trace checked without the knob, and the loop finishing a request after
 * the next RECV are each rejected.
 */
class EngineTraceTest {
  private static final List<TraceFeature> DECLARED = List.of(TraceFeature.FINISH_IN_STEP,
      TraceFeature.WRITE_AT_INSERT);

  /** {@code n} requests over {@code keys} keys, drawn from {@code seed}. */
  static List<Integer> keys(long seed, int n, int keys) {
    Random rnd = new Random(seed);
    return rnd.ints(n, 1, keys + 1).boxed().toList();
  }

  @ParameterizedTest(name = "{0} (1,{1},{2}) seed {3}: {4} requests over {5} keys, device 2 pages, host 3")
  @CsvSource({
      "merged,    2, 1, 1, 8, 4",   // S123 pops write and load acks
      "post20460, 2, 1, 2, 8, 4"})  // S1 and S2 on attn_cp
  void anEngineBuiltRanksTraceIsAcceptedByTlc(String version, int cp, int tp, long seed, int n, int keys)
      throws Exception {
    List<Integer> stream = keys(seed, n, keys);
    List<String> lines = EngineLoop.record(version, cp, tp, stream, 2, 3, Finish.END_OF_STEP, DECLARED);
    // a write ack popped at the event check of the step right after its request's insert: what finish_in_step allows
    assertTrue(lines.stream().anyMatch(l -> l.matches(".*\"site\":\"S1(23)?\".*\"pop\":\\[1.*")),
        "some write ack is popped");
    Validation v = TraceValidationTest.validate("engine-" + version + "-seed" + seed, lines);
    assertEquals(Validation.Outcome.ACCEPTED, v.outcome(), "seed " + seed + " keys " + stream + ": "
        + TraceValidationTest.show(v));
    assertTrue(v.events() >= 2 * n, "every request makes at least a RECV and an event check: " + v.events());
  }

  @ParameterizedTest(name = "edited {0}")
  @CsvSource({"res", "pop"})
  void anEditedLineIsRejectedThere(String field) throws Exception {
    List<String> lines = EngineLoop.record("merged", 2, 1, keys(1, 8, 4), 2, 3, Finish.END_OF_STEP, DECLARED);
    int line = TraceValidationTest.edit(lines, field);
    int event = TraceValidationTest.eventOfLine(lines, line);
    Validation v = TraceValidationTest.validate("engine-edited-" + field, lines);
    assertEquals(Validation.Outcome.REJECTED, v.outcome(), TraceValidationTest.show(v));
    assertEquals(event, v.event().orElseThrow().number(), "line " + line + ": " + TraceValidationTest.show(v));
  }

  /**
   * The spec's default order (a request finishes right after the next RECV) does not have this run: without
   * {@code finish_in_step} the same trace is rejected at its first event check, whose lookahead to the next
   * RECV's snapshot (no request running, its write queued) the default cannot match. The knob is what makes
   * the run a behaviour.
   */
  @Test
  void withoutFinishInStepTheSameRunIsRejected() throws Exception {
    List<String> lines = EngineLoop.record("merged", 2, 1, keys(1, 8, 4), 2, 3, Finish.END_OF_STEP,
        List.of(TraceFeature.FINISH_IN_STEP));
    lines.set(0, lines.get(0).replace("\"finish_in_step\"", ""));
    assertTrue(lines.get(0).contains("\"Features\":[]"), lines.get(0));
    Validation v = TraceValidationTest.validate("engine-no-knob", lines);
    assertEquals(Validation.Outcome.REJECTED, v.outcome(), TraceValidationTest.show(v));
    assertEquals(firstEventCheck(lines), v.event().orElseThrow().number(), TraceValidationTest.show(v));
  }

  /**
   * An engine loop in the spec's default order (a request finishes right after the next RECV), declared as such
   * (no finish_in_step): the builder's rank writes through at insert, so after the step that admitted a
   * request its write is already queued (and, with the built-in environment, done at the next event check),
   * where the default order has not finished the request yet. Rejected at the first event check, whose
   * lookahead to the next RECV's snapshot (write acks queued, host pages free) no behaviour matches.
   */
  @Test
  void aLoopInTheDefaultOrderIsRejectedAtItsFirstEventCheck() throws Exception {
    List<String> lines = EngineLoop.record("merged", 2, 1, keys(1, 8, 4), 2, 3, Finish.AFTER_NEXT_RECV, List.of());
    Validation v = TraceValidationTest.validate("engine-finish-after-recv", lines);
    assertEquals(Validation.Outcome.REJECTED, v.outcome(), TraceValidationTest.show(v));
    assertEquals(firstEventCheck(lines), v.event().orElseThrow().number(), TraceValidationTest.show(v));
  }

  /** The event of the trace's first S123 line. */
  private static int firstEventCheck(List<String> lines) throws Exception {
    for (int i = 1; i < lines.size(); i++) {
      if (lines.get(i).contains("\"site\":\"S123\"")) {
        return TraceValidationTest.eventOfLine(lines, i + 1);
      }
    }
    throw new AssertionError("no event check");
  }
}
