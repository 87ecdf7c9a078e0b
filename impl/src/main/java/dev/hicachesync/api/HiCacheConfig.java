package dev.hicachesync.api;

import dev.hicachesync.controller.ControllerConfig;
import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;

/**
 * One rank's HiCache configuration, in SGLang's server-argument vocabulary; every rank of a sync domain must
 * use equal values except {@code rank} (INV-6: equal capacities, or the ranks' evictions differ). Build with
 * {@link #builder()}; immutable, any thread.
 *
 * @param pageSize tokens per KV page ({@code --page-size}, SGLang default 64 with HiCache)
 * @param devicePages L1 capacity in pages ({@code max_total_num_tokens / page_size})
 * @param hicacheRatio L2 size as a multiple of L1 ({@code --hicache-ratio}); ignored when {@code
 *     hicacheSizeBytes} is set
 * @param hicacheSizeBytes L2 size per rank in bytes ({@code --hicache-size}, GB there), 0 to use the ratio
 * @param kvPageBytes bytes of one KV page on this rank (to turn {@code hicacheSizeBytes} into pages)
 * @param writePolicy {@code --hicache-write-policy}: {@code write_through}, {@code write_through_selective}
 *     or {@code write_back}
 * @param storagePrefetchPolicy {@code --hicache-storage-prefetch-policy}: {@code best_effort}, {@code
 *     wait_complete} or {@code timeout}
 * @param protocolVersion which sync protocol: {@code pre20460}, {@code post20460}, {@code merged} (the
 *     default) or {@code unified} (SGLang's unified radix cache, #35081: pp-size 1; free-running it needs the
 *     completion-sync groups of {@link RankGroups})
 *     (the default, #30511)
 * @param prefetchThresholdTokens {@code prefetch_threshold}: below this many agreed storage-hit tokens a
 *     prefetch is revoked (S7)
 * @param loadBackThresholdTokens {@code load_back_threshold}: shorter host hits are recomputed
 * @param ioBatchPages pages per storage read batch (SGLang: 128)
 * @param prefetchTimeoutBaseSteps {@code timeout} policy: scheduler steps before a prefetch may stop early
 *     ({@code prefetch_timeout_base}, in this API's unit of time: one {@link HiCacheRank#checkHicacheEvents}
 *     call)
 * @param prefetchTimeoutStepsPer1024 {@code timeout} policy: extra steps per 1024 prefetched tokens
 * @param dpSize attention-DP replicas ({@code --dp-size} with DP attention)
 * @param attnCpSize attention-CP ranks per replica ({@code --attn-cp-size})
 * @param attnTpSize attention-TP ranks per CP shard ({@code tp_size / (dp_size · attn_cp_size)})
 * @param ppSize pipeline stages ({@code --pp-size})
 * @param rank this rank's global rank ({@code pp_rank · tp_size + tp_rank})
 */
public record HiCacheConfig(
    int pageSize, int devicePages, double hicacheRatio, long hicacheSizeBytes, long kvPageBytes,
    String writePolicy, String storagePrefetchPolicy, String protocolVersion, int prefetchThresholdTokens,
    int loadBackThresholdTokens, int ioBatchPages, long prefetchTimeoutBaseSteps,
    long prefetchTimeoutStepsPer1024, int dpSize, int attnCpSize, int attnTpSize, int ppSize, int rank) {

  /** Checks every field; a bad one is a one-line {@link IllegalArgumentException} naming it. */
  public HiCacheConfig {
    positive("page size", pageSize);
    positive("device pages", devicePages);
    positive("I/O batch pages", ioBatchPages);
    positive("KV page bytes", kvPageBytes);
    if (!(hicacheRatio >= 0) || hicacheSizeBytes < 0) {
      throw new IllegalArgumentException("hicache-ratio and hicache-size must be >= 0, got " + hicacheRatio
          + " and " + hicacheSizeBytes);
    }
    if (prefetchThresholdTokens < 0 || loadBackThresholdTokens < 0 || prefetchTimeoutBaseSteps < 0
        || prefetchTimeoutStepsPer1024 < 0) {
      throw new IllegalArgumentException("thresholds and timeouts must be >= 0");
    }
    WritePolicy.parse(writePolicy); // each names the bad value and the valid ones
    PrefetchPolicy.parse(storagePrefetchPolicy);
    if (ProtocolVersion.parse(protocolVersion) == ProtocolVersion.UNIFIED && ppSize > 1) {
      throw new IllegalArgumentException("protocol version unified needs pp-size 1: its merged PP collective"
          + " (#33473, #37562) is not implemented; got " + ppSize);
    }
    Topology t;
    try {
      t = Topology.of(dpSize, attnCpSize, attnTpSize, ppSize);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
    if (rank < 0 || rank >= t.worldSize()) {
      throw new IllegalArgumentException("rank must be in [0, " + t.worldSize() + "), got " + rank);
    }
  }

  private static void positive(String what, long v) {
    if (v < 1) {
      throw new IllegalArgumentException(what + " must be >= 1, got " + v);
    }
  }

  /** Returns a builder with SGLang's defaults and one rank (rank 0 of a 1×1×1×1 grid). */
  public static Builder builder() {
    return new Builder();
  }

  /** Returns L2 capacity in pages: {@code hicache-size / page bytes}, else {@code hicache-ratio × L1}. */
  public int hostPages() {
    long pages = hicacheSizeBytes > 0 ? hicacheSizeBytes / kvPageBytes : (long) (hicacheRatio * devicePages);
    return (int) Math.min(Integer.MAX_VALUE, pages);
  }

  /** Returns a copy of this configuration for another rank of the same grid. */
  public HiCacheConfig forRank(int otherRank) {
    return new HiCacheConfig(pageSize, devicePages, hicacheRatio, hicacheSizeBytes, kvPageBytes, writePolicy,
        storagePrefetchPolicy, protocolVersion, prefetchThresholdTokens, loadBackThresholdTokens, ioBatchPages,
        prefetchTimeoutBaseSteps, prefetchTimeoutStepsPer1024, dpSize, attnCpSize, attnTpSize, ppSize,
        otherRank);
  }

  /** Returns the number of ranks of the grid. */
  public int worldSize() {
    return topology().worldSize();
  }

  Topology topology() {
    return Topology.of(dpSize, attnCpSize, attnTpSize, ppSize);
  }

  ProtocolVersion version() {
    return ProtocolVersion.parse(protocolVersion);
  }

  ControllerConfig controllerConfig(boolean storageOn) {
    return new ControllerConfig(pageSize, devicePages, hostPages(), WritePolicy.parse(writePolicy),
        PrefetchPolicy.parse(storagePrefetchPolicy), storageOn, prefetchThresholdTokens, loadBackThresholdTokens,
        ioBatchPages, prefetchTimeoutBaseSteps, prefetchTimeoutStepsPer1024, kvPageBytes);
  }

  /** A mutable builder; every setter returns it. Defaults: SGLang's where it has one. */
  public static final class Builder {
    private int pageSize = 64;
    private int devicePages = 1024;
    private double hicacheRatio = 2.0;
    private long hicacheSizeBytes;
    private long kvPageBytes = 64L * 1024;
    private String writePolicy = "write_through";
    private String storagePrefetchPolicy = "best_effort";
    private String protocolVersion = "merged";
    private int prefetchThresholdTokens = 256;
    private int loadBackThresholdTokens = 64;
    private int ioBatchPages = 128;
    private long prefetchTimeoutBaseSteps = 12;
    private long prefetchTimeoutStepsPer1024 = 4;
    private int dpSize = 1;
    private int attnCpSize = 1;
    private int attnTpSize = 1;
    private int ppSize = 1;
    private int rank;

    /** Every setting at its default; the same as {@link HiCacheConfig#builder()}. */
    public Builder() {}

    public Builder pageSize(int v) { pageSize = v; return this; }
    public Builder devicePages(int v) { devicePages = v; return this; }
    public Builder hicacheRatio(double v) { hicacheRatio = v; return this; }
    public Builder hicacheSizeBytes(long v) { hicacheSizeBytes = v; return this; }
    public Builder kvPageBytes(long v) { kvPageBytes = v; return this; }
    public Builder writePolicy(String v) { writePolicy = v; return this; }
    public Builder storagePrefetchPolicy(String v) { storagePrefetchPolicy = v; return this; }
    public Builder protocolVersion(String v) { protocolVersion = v; return this; }
    public Builder prefetchThresholdTokens(int v) { prefetchThresholdTokens = v; return this; }
    public Builder loadBackThresholdTokens(int v) { loadBackThresholdTokens = v; return this; }
    public Builder ioBatchPages(int v) { ioBatchPages = v; return this; }
    public Builder prefetchTimeoutBaseSteps(long v) { prefetchTimeoutBaseSteps = v; return this; }
    public Builder prefetchTimeoutStepsPer1024(long v) { prefetchTimeoutStepsPer1024 = v; return this; }

    /** Sets the grid: attention-DP replicas, attention-CP and attention-TP ranks, pipeline stages. */
    public Builder parallelism(int dp, int attnCp, int attnTp, int pp) {
      dpSize = dp;
      attnCpSize = attnCp;
      attnTpSize = attnTp;
      ppSize = pp;
      return this;
    }

    public Builder rank(int v) { rank = v; return this; }

    /** Returns the configuration; a bad value is a one-line {@link IllegalArgumentException}. */
    public HiCacheConfig build() {
      return new HiCacheConfig(pageSize, devicePages, hicacheRatio, hicacheSizeBytes, kvPageBytes, writePolicy,
          storagePrefetchPolicy, protocolVersion, prefetchThresholdTokens, loadBackThresholdTokens, ioBatchPages,
          prefetchTimeoutBaseSteps, prefetchTimeoutStepsPer1024, dpSize, attnCpSize, attnTpSize, ppSize, rank);
    }
  }
}
