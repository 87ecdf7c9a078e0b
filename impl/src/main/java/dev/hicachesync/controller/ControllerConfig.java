package dev.hicachesync.controller;

/**
 * The knobs of one rank's controller; every rank of a sync domain must use equal values (INV-6).
 *
 * @param pageSize tokens per page (SGLang default 64)
 * @param devicePages L1 capacity in pages
 * @param hostPages L2 capacity in pages
 * @param writePolicy when to back up device pages
 * @param prefetchPolicy when a prefetch may stop
 * @param storage whether an L3 storage is attached (prefetch, storage backup)
 * @param prefetchThresholdTokens below this many synced storage-hit tokens a prefetch is revoked (S7)
 * @param loadBackThresholdTokens host hits shorter than this are recomputed, not loaded back
 * @param ioBatchPages pages per storage read batch (SGLang: 128)
 * @param timeoutBaseTicks {@code timeout} policy: ticks before a prefetch may stop early
 * @param timeoutTicksPer1024 {@code timeout} policy: extra ticks per 1024 prefetched tokens
 * @param pageBytes bytes of one page, for the bytes-moved statistics
 *
 * <p>No fault switches: deliberate bugs ({@link ControllerFaults}) are a simulator and test seam, passed to
 * the controller apart from its configuration, never part of what an engine configures.
 */
public record ControllerConfig(
    int pageSize, int devicePages, int hostPages, WritePolicy writePolicy,
    PrefetchPolicy prefetchPolicy, boolean storage, int prefetchThresholdTokens,
    int loadBackThresholdTokens, int ioBatchPages, long timeoutBaseTicks, long timeoutTicksPer1024,
    long pageBytes) {

  /** Checks the sizes. */
  public ControllerConfig {
    if (pageSize < 1 || devicePages < 1 || hostPages < 0 || ioBatchPages < 1) {
      throw new IllegalArgumentException("page size, device pages and I/O batch must be >= 1, host pages >= 0");
    }
  }
}
