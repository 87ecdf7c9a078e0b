package dev.hicachesync.trace;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;

/**
 * What {@code spec/TraceHiCacheUnified.tla} (the trace module of version {@code unified}) can follow: a run of
 * {@code HiCacheUnified.tla}'s shape, every request its own one-page key, one at a time, no write-through, no
 * device tier. {@code validate-trace} refuses a {@code unified} trace that uses anything else (exit 2, one line
 * naming it), as {@link TraceHeader#unfollowable} does for {@code TraceHiCacheSync.tla}: the difference would
 * be the mapping's, not the protocol's.
 */
public final class UnifiedTraceFeatures {

  /** A feature, declared or implied by the header, that the unified trace module cannot follow. */
  public record Refusal(String label, String whyNot) {}

  /** Why the unified trace module cannot follow each declared feature; a feature not listed here it follows. */
  private static final Map<TraceFeature, String> WHY_NOT = new EnumMap<>(TraceFeature.class);

  static {
    String onePage = "HiCacheUnified has one page per key";
    String noWrites = "HiCacheUnified has no write-through (S123's write count is 0); a spec-shaped unified run is"
        + " write_back with a device pool that never fills";
    WHY_NOT.put(TraceFeature.MULTI_PAGE_KEYS, onePage);
    WHY_NOT.put(TraceFeature.MULTI_PAGE_KEYS_WITH_STORAGE, onePage);
    WHY_NOT.put(TraceFeature.WORKLOAD_RECV, "HiCacheUnified's RECV delivers the next request of a fixed stream once"
        + " no prefetch is in flight on any rank");
    WHY_NOT.put(TraceFeature.SEVERAL_RUNNING, "HiCacheUnified runs one request at a time");
    WHY_NOT.put(TraceFeature.DECODE, "HiCacheUnified's requests have no output tokens");
    WHY_NOT.put(TraceFeature.ABORTS, "HiCacheUnified aborts only under its knob wait_timeout, which a trace does"
        + " not follow");
    WHY_NOT.put(TraceFeature.ABORTS_RUNNING, "HiCacheUnified's requests have no decode steps to abort in");
    WHY_NOT.put(TraceFeature.SHARED_PREFIXES, "HiCacheUnified's requests share no prefix: one node per request");
    WHY_NOT.put(TraceFeature.WRITE_AT_INSERT, noWrites);
    WHY_NOT.put(TraceFeature.WRITE_THROUGH_SELECTIVE, noWrites);
    WHY_NOT.put(TraceFeature.PP, "HiCacheUnified has one stage (HiCacheUnifiedPP.tla has no trace module)");
  }

  /** Declared features the unified trace module follows. */
  private static final java.util.Set<TraceFeature> FOLLOWED =
      java.util.EnumSet.of(TraceFeature.STORAGE, TraceFeature.WRITE_BACK);

  private UnifiedTraceFeatures() {}

  /**
   * The first thing in {@code h} (a {@code unified} header) the unified trace module cannot follow, or null:
   * a used feature ({@link TraceHeader#used}), then what only this module refuses, implied by the header's
   * fields: the write_through policy, a key requested twice.
   */
  public static Refusal unfollowable(TraceHeader h) {
    for (TraceFeature f : h.used()) {
      if (!FOLLOWED.contains(f)) {
        return new Refusal(f.label(), WHY_NOT.getOrDefault(f, "TraceHiCacheUnified.tla does not follow it"));
      }
    }
    if ("write_through".equals(h.writePolicy())) {
      return new Refusal("write_through", WHY_NOT.get(TraceFeature.WRITE_AT_INSERT));
    }
    if (new HashSet<>(h.requests()).size() != h.requests().size()) {
      return new Refusal("repeated_keys", "each request of HiCacheUnified has its own node and prefetches it; a"
          + " key requested again would hit the tree instead");
    }
    return null;
  }
}
