package dev.hicachesync.sim;

import dev.hicachesync.controller.ControllerFaults;
import java.util.Set;

/**
 * Deliberate protocol bugs the simulator can inject so that tests prove the invariant checks catch them
 * (issue 5). Off by default; each applies to every rank (a code bug), and the ranks' timing skew makes it
 * bite.
 */
public enum Fault {
  /** B3 (#10127): {@code writing_check} returns before its collective when no write ack is ready here. */
  SKIP_IDLE_WRITE_CHECK,
  /** B5: {@code loading_check} pops this rank's own count of ready load acks, without the MIN. */
  UNSYNCED_LOADING_CHECK,
  /**
   * B10 (#30760): the admission loop breaks on a rank-local "batch full" condition before it has checked
   * the prefetches of the requests behind, so ranks make different numbers of S4/S5 collectives.
   */
  EARLY_ADMISSION_EXIT,
  /**
   * B7 before #27010: a stopped prefetch hands back its unread host slots at once, while the rank's I/O
   * thread may still be writing them ({@code HostSlotSafety}).
   */
  EARLY_TAIL_RELEASE;

  /** Returns the controller's part of {@code faults}. */
  static ControllerFaults controllerFaults(Set<Fault> faults) {
    return new ControllerFaults(faults.contains(SKIP_IDLE_WRITE_CHECK),
        faults.contains(UNSYNCED_LOADING_CHECK), faults.contains(EARLY_TAIL_RELEASE));
  }
}
