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
}
