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
 */
public record TraceHeader(
    int dp, int cp, int tp, int pp, String version, String policy, String writePolicy, boolean storage,
    List<Integer> requests, int pagesPerKey, int deviceCap, int hostCap, int prefetchThreshold) {

  /** The value of the header's {@code trace} field: the format and its version. */
  public static final String FORMAT = "hicache-sync-trace/1";
  /** Protocol versions. */
  public static final Set<String> VERSIONS = Set.of("pre20460", "post20460", "merged", "unified");
  /** Prefetch policies. */
  public static final Set<String> POLICIES = Set.of("best_effort", "wait_complete", "timeout");
  /** Write policies the spec models. */
  public static final Set<String> WRITE_POLICIES = Set.of("write_through");

  /** Checks the fields; throws {@link IllegalArgumentException} with one line naming the bad field. */
  public TraceHeader {
    requests = List.copyOf(requests);
    check(dp >= 1 && cp >= 1 && tp >= 1 && pp >= 1, "dp/cp/tp/pp",
        "sizes must be >= 1, got " + dp + "," + cp + "," + tp + "," + pp);
    check(VERSIONS.contains(version), "version", "'" + version + "' is not one of " + VERSIONS);
    check(POLICIES.contains(policy), "policy", "'" + policy + "' is not one of " + POLICIES);
    check(WRITE_POLICIES.contains(writePolicy), "writePolicy", "'" + writePolicy + "' is not one of "
        + WRITE_POLICIES);
    check(!requests.isEmpty(), "requests", "must hold at least one request");
    for (int k : requests) {
      check(k >= 1, "requests", "keys must be >= 1, got " + k);
    }
    check(pagesPerKey >= 1, "pagesPerKey", "must be >= 1, got " + pagesPerKey);
    check(deviceCap >= 0 && hostCap >= 0 && prefetchThreshold >= 0, "deviceCap/hostCap/prefetchThreshold",
        "must be >= 0");
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
