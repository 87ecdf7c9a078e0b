package dev.hicachesync.sim;

import dev.hicachesync.controller.ControllerStats;

/**
 * The controller counters a run's statistics sum ({@link SimStats}), read once from a rank's live
 * controller ({@link #of}) or from a rank process's report ({@link ProcessReports}). A record of its own so
 * that both sources feed the same sums, and a report never needs a {@link ControllerStats} it could write.
 */
record ControllerCounts(long deviceToHostCopies, long deviceToHostPages, long hostToDeviceCopies,
    long hostToDevicePages, long storageReadPages, long storageWritePages, long storageReadFailures,
    long storageCorruptPages, long storageForgedPages, long prefetchesIssued, long prefetchesRevoked,
    long prefetchesTerminated, long prefetchesCompleted, long prefetchesAborted, long prefetchesParked,
    long parkedHitsGranted) {

  /** Returns {@code c}'s counts now. */
  static ControllerCounts of(ControllerStats c) {
    return new ControllerCounts(c.deviceToHostCopies(), c.deviceToHostPages(), c.hostToDeviceCopies(),
        c.hostToDevicePages(), c.storageReadPages(), c.storageWritePages(), c.storageReadFailures(),
        c.storageCorruptPages(), c.storageForgedPages(), c.prefetchesIssued(), c.prefetchesRevoked(),
        c.prefetchesTerminated(), c.prefetchesCompleted(), c.prefetchesAborted(), c.prefetchesParked(),
        c.parkedHitsGranted());
  }
}
