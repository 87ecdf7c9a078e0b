package dev.hicachesync.controller;

/**
 * Deliberate protocol bugs the controller can be built with, so that tests can prove the invariant checks
 * bite (issue 5); {@link #NONE} in every real run. Set through {@code sim.Fault}; internal: never part of the
 * public API ({@code api.HiCacheConfig} has no fault switch), only the simulator's seam passes it to
 * {@link CacheController}.
 *
 * @param skipIdleWriteCheck B3 (#10127): {@code writing_check} returns before its collective when no write
 *     ack is ready on this rank
 * @param unsyncedLoadingCheck B5: {@code loading_check} pops this rank's own count of ready load acks
 * @param releaseTailEarly B7 before #27010: a stopped prefetch's unread host slots are handed back at once,
 *     while this rank's I/O thread may still be writing them
 * @param untrackedSlots the host slot ledger does not check frees against in-flight transfers (a build
 *     without it), so only the data path's integrity checks can see a slot reused too early
 */
public record ControllerFaults(
    boolean skipIdleWriteCheck, boolean unsyncedLoadingCheck, boolean releaseTailEarly,
    boolean untrackedSlots) {
  /** No fault: the protocol as specified. */
  public static final ControllerFaults NONE = new ControllerFaults(false, false, false);

  /** The faults without {@code untrackedSlots} (the slot ledger checks every free). */
  public ControllerFaults(boolean skipIdleWriteCheck, boolean unsyncedLoadingCheck, boolean releaseTailEarly) {
    this(skipIdleWriteCheck, unsyncedLoadingCheck, releaseTailEarly, false);
  }
}
