package dev.hicachesync.sync;

/**
 * Told after every sync point a rank passes; the simulator snapshots the rank's digest there.
 *
 * <p>Called on the thread that ran the sync point (scheduler or prefetch thread).
 */
@FunctionalInterface
public interface SyncObserver {

  /** An observer that does nothing. */
  SyncObserver NONE = point -> {};

  /** The rank has just applied the decision of {@code point}. */
  void afterSync(SyncPoint point);

  /**
   * A sync layer has reduced {@code local} to {@code result} at {@code point} (one call per sync point,
   * whatever number of collectives or pipeline receives it took): the seam for trace recording.
   * The default does nothing; it must not mutate the arrays.
   */
  default void onReduce(SyncPoint point, long[] local, long[] result) {}
}
