package dev.hicachesync.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the unified trace module follows ({@link UnifiedTraceFeatures}): the header a spec-shaped unified run
 * writes (storage, write_back, keys 1..N) passes; every other declared or implied feature is refused with its
 * label and HiCacheUnified's reason, first in header order.
 */
class UnifiedTraceFeaturesTest {

  static TraceHeader header(int pp, String writePolicy, List<Integer> requests, int pagesPerKey,
      List<TraceFeature> features) {
    return new TraceHeader(1, 2, 1, pp, "unified", "timeout", writePolicy, true, requests, pagesPerKey, 3, 3, 1,
        features);
  }

  @Test
  void theSpecShapedUnifiedHeaderIsFollowed() {
    assertNull(UnifiedTraceFeatures.unfollowable(header(1, "write_back", List.of(1, 2, 3), 1,
        List.of(TraceFeature.STORAGE))));
  }

  @Test
  void everythingElseIsRefusedByName() {
    assertEquals("write_through",
        UnifiedTraceFeatures.unfollowable(header(1, "write_through", List.of(1, 2), 1, List.of())).label());
    assertEquals("repeated_keys",
        UnifiedTraceFeatures.unfollowable(header(1, "write_back", List.of(1, 2, 1), 1, List.of())).label());
    assertEquals("multi_page_keys_with_storage",
        UnifiedTraceFeatures.unfollowable(header(1, "write_back", List.of(1, 2), 2, List.of())).label());
    assertEquals("pp", UnifiedTraceFeatures.unfollowable(header(2, "write_back", List.of(1), 1, List.of())).label());
    // the simulator's own loop (simulate --trace --trace-loop simulator): no request stream, refused by its RECV
    UnifiedTraceFeatures.Refusal r = UnifiedTraceFeatures.unfollowable(header(1, "write_back", List.of(), 1,
        List.of(TraceFeature.STORAGE, TraceFeature.WORKLOAD_RECV, TraceFeature.DECODE)));
    assertEquals("workload_recv", r.label());
    assertTrue(r.whyNot().contains("HiCacheUnified"), r.whyNot());
    for (TraceFeature f : TraceFeature.values()) {
      if (f != TraceFeature.STORAGE && f != TraceFeature.WRITE_BACK) {
        assertEquals(f.label(), UnifiedTraceFeatures.unfollowable(header(1, "write_back", List.of(1), 1,
            List.of(f))).label(), "declared " + f.label());
      }
    }
  }
}
