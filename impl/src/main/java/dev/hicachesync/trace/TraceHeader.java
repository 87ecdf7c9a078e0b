package dev.hicachesync.trace;

import java.util.List;
import java.util.Set;

/**
 * The first line of a trace: the run's constants, named as in {@code spec/HiCacheSync.tla} and {@code
 * spec/Topology.tla}, so that the trace spec is instantiated with the constants of the run.
 *
 * @param dp attention data-parallel replicas
 * @param cp context-parallel size
 * @param tp attention tensor-parallel size
 * @param pp pipeline stages
 * @param version pre20460, post20460, merged or unified (the last is read, and refused by validate-trace)
 * @param policy prefetch stop policy
 * @param writePolicy write policy
 * @param storage whether the L3 storage tier is on
 * @param requests the request stream: one key per request, keys from 1
 * @param pagesPerKey pages of one key
 * @param deviceCap device pool pages per rank
 * @param hostCap host pool pages per rank
 * @param prefetchThreshold pages below which a prefetch is revoked
 * @param features what the run used ({@code Features}, optional in the file: absent is none); the header's
 *     other fields imply some more ({@link #used})
 */
public record TraceHeader(
    int dp, int cp, int tp, int pp, String version, String policy, String writePolicy, boolean storage,
    List<Integer> requests, int pagesPerKey, int deviceCap, int hostCap, int prefetchThreshold,
    List<TraceFeature> features) {

  /** The value of the header's {@code trace} field: the format and its version. */
  public static final String FORMAT = "hicache-sync-trace/1";
  /** Protocol versions. */
  public static final Set<String> VERSIONS = Set.of("pre20460", "post20460", "merged", "unified");
  /** Prefetch policies. */
  public static final Set<String> POLICIES = Set.of("best_effort", "wait_complete", "timeout");
  /** Write policies a header may name (the spec models write_through; the others are features it refuses). */
  public static final Set<String> WRITE_POLICIES = Set.of("write_through", "write_through_selective",
      "write_back");

  /** A header without a {@code Features} field (the run used only what its other fields say). */
  public TraceHeader(int dp, int cp, int tp, int pp, String version, String policy, String writePolicy,
      boolean storage, List<Integer> requests, int pagesPerKey, int deviceCap, int hostCap, int prefetchThreshold) {
    this(dp, cp, tp, pp, version, policy, writePolicy, storage, requests, pagesPerKey, deviceCap, hostCap,
        prefetchThreshold, List.of());
  }

  /** Checks the fields; throws {@link IllegalArgumentException} with one line naming the bad field. */
  public TraceHeader {
    requests = List.copyOf(requests);
    features = List.copyOf(features);
    check(dp >= 1 && cp >= 1 && tp >= 1 && pp >= 1, "dp/cp/tp/pp",
        "sizes must be >= 1, got " + dp + "," + cp + "," + tp + "," + pp);
    check(VERSIONS.contains(version), "version", "'" + version + "' is not one of " + VERSIONS);
    check(POLICIES.contains(policy), "policy", "'" + policy + "' is not one of " + POLICIES);
    check(WRITE_POLICIES.contains(writePolicy), "writePolicy", "'" + writePolicy + "' is not one of "
        + WRITE_POLICIES);
    // A run the spec cannot follow (the simulator's own scheduler) has no fixed request stream to name.
    check(!requests.isEmpty() || !followable(used(features, pp, writePolicy, storage, pagesPerKey)), "requests",
        "must hold at least one request");
    for (int k : requests) {
      check(k >= 1, "requests", "keys must be >= 1, got " + k);
    }
    check(pagesPerKey >= 1, "pagesPerKey", "must be >= 1, got " + pagesPerKey);
    check(deviceCap >= 0 && hostCap >= 0 && prefetchThreshold >= 0, "deviceCap/hostCap/prefetchThreshold",
        "must be >= 0");
  }

  /**
   * Every feature the run used: the declared {@link #features} and what the other fields imply (PP > 1, a
   * write policy other than write_through, keys of several pages with storage on), in declaration order.
   */
  public List<TraceFeature> used() {
    return used(features, pp, writePolicy, storage, pagesPerKey);
  }

  /** The first feature of {@link #used} that the spec cannot follow, or null when it can follow them all. */
  public TraceFeature unfollowable() {
    List<TraceFeature> used = used();
    for (TraceFeature f : used) {
      if (!f.specFollows() && !followableWith(f, used)) {
        return f;
      }
    }
    return null;
  }

  /**
   * Whether {@code f}, which the spec cannot follow on its own, is followable together with the rest of {@code
   * used}: write-through at insert with {@code finish_in_step} (the request finishes in the step of its insert,
   * and nothing is observed in between, as long as one request runs at a time, which the other refused features
   * guard).
   */
  private static boolean followableWith(TraceFeature f, List<TraceFeature> used) {
    return f == TraceFeature.WRITE_AT_INSERT && used.contains(TraceFeature.FINISH_IN_STEP);
  }

  /** The spec knobs the trace is checked with: those of the features it uses ({@link TraceFeature#specKnob}). */
  public List<String> specKnobs() {
    return used().stream().map(TraceFeature::specKnob).filter(java.util.Objects::nonNull).toList();
  }

  private static List<TraceFeature> used(List<TraceFeature> declared, int pp, String writePolicy,
      boolean storage, int pagesPerKey) {
    java.util.EnumSet<TraceFeature> all = java.util.EnumSet.noneOf(TraceFeature.class);
    all.addAll(declared);
    if (pp > 1) {
      all.add(TraceFeature.PP);
    }
    if ("write_back".equals(writePolicy)) {
      all.add(TraceFeature.WRITE_BACK);
    }
    if ("write_through_selective".equals(writePolicy)) {
      all.add(TraceFeature.WRITE_THROUGH_SELECTIVE);
    }
    if (storage && pagesPerKey > 1) {
      all.add(TraceFeature.MULTI_PAGE_KEYS_WITH_STORAGE);
    }
    return List.copyOf(all);
  }

  private static boolean followable(List<TraceFeature> fs) {
    return fs.stream().allMatch(f -> f.specFollows() || followableWith(f, fs));
  }

  /** Number of ranks of the run. */
  public int ranks() {
    return dp * cp * tp * pp;
  }

  private static void check(boolean ok, String field, String message) {
    if (!ok) {
      throw new IllegalArgumentException("field '" + field + "' " + message);
    }
  }
}
