package dev.hicachesync.api;

import dev.hicachesync.tier.DeviceTier;
import dev.hicachesync.tier.HostLayout;
import dev.hicachesync.trace.TraceRecorder;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Builds a {@link HiCacheRank} ({@link HiCacheRank#builder}); every setter returns it. Any thread, once.
 */
public final class HiCacheRankBuilder {
  private final HiCacheConfig config;
  private RankGroups groups;
  private HiCacheStorage storage = HiCacheStorage.NONE;
  private TraceRecorder traceRecorder = TraceRecorder.NONE;
  private LongSupplier traceStep;
  private ThreadMode threadMode = ThreadMode.STEPPED;
  private DeviceTier deviceTier;
  private HostLayout hostLayout = HostLayout.PAGE_FIRST;

  HiCacheRankBuilder(HiCacheConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  /** The engine's process groups for this rank (required). */
  public HiCacheRankBuilder groups(RankGroups g) {
    groups = g;
    return this;
  }

  /** The L3 store (default {@link HiCacheStorage#NONE}). */
  public HiCacheRankBuilder storage(HiCacheStorage s) {
    storage = Objects.requireNonNull(s, "storage");
    return this;
  }

  /**
   * Records the rank's sync points into {@code recorder} (default {@link TraceRecorder#NONE}: nothing is
   * wrapped and nothing recorded): every collective of its groups as the spec names it, each sync point's
   * popped acks, and what {@link HiCacheRank#beforeRecv} hands over. The engine writes the header and
   * records its own RECV through {@link HiCacheRank#traceRecv}; {@code step} is its current scheduler
   * step.
   */
  public HiCacheRankBuilder trace(TraceRecorder recorder, LongSupplier step) {
    traceRecorder = Objects.requireNonNull(recorder, "recorder");
    traceStep = Objects.requireNonNull(step, "step");
    return this;
  }

  /**
   * The device pool whose pages the engine's forward pass writes (a {@code tier.cuda.JCudaDeviceTier} on a GPU,
   * a {@code tier.HostMemoryDeviceTier} without one; at least {@code devicePages} pages). The rank then moves
   * real KV bytes: write-through and load-back copy between it and a host pool the rank allocates ({@code
   * hostPages} pages of the tier's geometry, in {@link #hostLayout}), backups and prefetches between that
   * pool and the L3 store. Default: none, page counts only. The engine keeps ownership (the rank never
   * closes it).
   */
  public HiCacheRankBuilder deviceTier(DeviceTier tier) {
    deviceTier = Objects.requireNonNull(tier, "deviceTier");
    return this;
  }

  /** The host pool's layout with a {@link #deviceTier} (default {@code page_first}, SGLang's default). */
  public HiCacheRankBuilder hostLayout(HostLayout layout) {
    hostLayout = Objects.requireNonNull(layout, "hostLayout");
    return this;
  }

  /** How the rank's threads hand work back (default {@link ThreadMode#STEPPED}). */
  public HiCacheRankBuilder threadMode(ThreadMode mode) {
    threadMode = Objects.requireNonNull(mode, "threadMode");
    return this;
  }

  /**
   * Returns the rank, its threads started; a one-line {@link IllegalArgumentException} when the groups are missing or their
   * members are not the ones the configuration's grid gives this rank.
   */
  public HiCacheRank build() {
    return RankWiring.build(this);
  }

  // ---------------------------------------------------------------- what was set, for {@link RankWiring}

  HiCacheConfig config() { return config; }
  RankGroups groups() { return groups; }
  HiCacheStorage storage() { return storage; }
  TraceRecorder traceRecorder() { return traceRecorder; }
  LongSupplier traceStep() { return traceStep; }
  ThreadMode threadMode() { return threadMode; }
  DeviceTier deviceTier() { return deviceTier; }
  HostLayout hostLayout() { return hostLayout; }
}
