package dev.hicachesync.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.hicachesync.trace.ndjson.NdjsonTraceRecorder;
import dev.hicachesync.trace.ndjson.TraceReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The header's {@code Features}: written and read back, implied by other fields, the first one refused. */
class TraceFeatureTest {

  private static TraceHeader header(int pp, String writePolicy, boolean storage, int pagesPerKey,
      List<Integer> requests, List<TraceFeature> features) {
    return new TraceHeader(1, 2, 1, pp, "merged", "timeout", writePolicy, storage, requests, pagesPerKey, 1, 2, 1,
        features);
  }

  @Test
  void featuresAreWrittenAndReadBack() throws Exception {
    TraceHeader h = header(1, "write_through", true, 1, List.of(1, 2),
        List.of(TraceFeature.STORAGE, TraceFeature.DECODE));
    String line = NdjsonTraceRecorder.line(h);
    assertTrue(line.endsWith(",\"Features\":[\"storage\",\"decode\"]}"), line);
    assertEquals(h, TraceReader.parse("t", List.of(line, TraceReaderTest.S123)).header());
  }

  @Test
  void aHeaderWithoutTheFieldUsesOnlyWhatItsFieldsImply() throws Exception {
    String old = TraceReaderTest.HEAD.replace(",\"Features\":[]", "");
    TraceHeader h = TraceReader.parse("t", List.of(old, TraceReaderTest.S123)).header();
    assertEquals(List.of(), h.features());
    assertNull(h.unfollowable());
  }

  @Test
  void otherFieldsImplyFeaturesTheSpecCannotFollow() {
    assertEquals(List.of(TraceFeature.PP), header(2, "write_through", false, 1, List.of(1), List.of()).used());
    assertNull(header(2, "write_through", false, 1, List.of(1), List.of()).unfollowable(),
        "PP > 1 is TraceHiCachePipeline.tla's");
    assertEquals(TraceFeature.WRITE_BACK, header(1, "write_back", false, 1, List.of(1), List.of()).unfollowable());
    assertEquals(TraceFeature.WRITE_THROUGH_SELECTIVE,
        header(1, "write_through_selective", false, 1, List.of(1), List.of()).unfollowable());
    assertEquals(TraceFeature.MULTI_PAGE_KEYS_WITH_STORAGE,
        header(1, "write_through", true, 2, List.of(1), List.of()).unfollowable());
    assertNull(header(1, "write_through", false, 2, List.of(1), List.of(TraceFeature.MULTI_PAGE_KEYS))
        .unfollowable());
    assertEquals(TraceFeature.SEVERAL_RUNNING, header(1, "write_through", true, 1, List.of(1),
        List.of(TraceFeature.STORAGE, TraceFeature.DECODE, TraceFeature.SEVERAL_RUNNING)).unfollowable(),
        "the first in TraceFeature's order, whatever the header's");
  }

  @Test
  void onlyARunTheSpecCannotFollowMayNameNoRequests() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> header(1, "write_through", false, 1, List.of(), List.of(TraceFeature.STORAGE)));
    assertTrue(e.getMessage().contains("'requests'"), e.getMessage());
    assertEquals(TraceFeature.WORKLOAD_RECV,
        header(1, "write_through", false, 1, List.of(), List.of(TraceFeature.WORKLOAD_RECV)).unfollowable());
  }

  @Test
  void everyFeatureHasAUniqueLabelAndTheSpecFollowsOnlyThePlainOnes() {
    for (TraceFeature f : TraceFeature.values()) {
      assertEquals(f, TraceFeature.byLabel(f.label()));
      assertEquals(f.specFollows(), f.whyNot() == null);
    }
    assertEquals(List.of(TraceFeature.STORAGE, TraceFeature.MULTI_PAGE_KEYS, TraceFeature.FINISH_IN_STEP,
        TraceFeature.ABORTS, TraceFeature.PP), // PP: TraceHiCachePipeline
        java.util.Arrays.stream(TraceFeature.values()).filter(TraceFeature::specFollows).toList());
  }

  @Test
  void writeAtInsertIsFollowedOnlyWithFinishInStepAndFeaturesTurnTheirSpecKnobsOn() {
    TraceHeader alone = header(1, "write_through", false, 1, List.of(1), List.of(TraceFeature.WRITE_AT_INSERT));
    assertEquals(TraceFeature.WRITE_AT_INSERT, alone.unfollowable());
    assertEquals(List.of(), alone.specKnobs());
    TraceHeader inStep = header(1, "write_through", false, 1, List.of(1),
        List.of(TraceFeature.WRITE_AT_INSERT, TraceFeature.FINISH_IN_STEP));
    assertNull(inStep.unfollowable());
    assertEquals(List.of("finish_in_step"), inStep.specKnobs());
    assertEquals(TraceFeature.DECODE, header(1, "write_through", false, 1, List.of(1),
        List.of(TraceFeature.FINISH_IN_STEP, TraceFeature.WRITE_AT_INSERT, TraceFeature.DECODE)).unfollowable(),
        "finish_in_step makes write_at_insert followable, nothing else");
    assertEquals(List.of("finish_in_step", "abort"), header(1, "write_through", true, 1, List.of(1),
        List.of(TraceFeature.ABORTS, TraceFeature.STORAGE, TraceFeature.FINISH_IN_STEP)).specKnobs());
    assertThrows(IllegalArgumentException.class, () -> header(1, "write_through", false, 1, List.of(),
        List.of(TraceFeature.FINISH_IN_STEP, TraceFeature.WRITE_AT_INSERT)), "a followable run names its requests");
  }
}
