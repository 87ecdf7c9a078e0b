package dev.hicachesync.sim;

import dev.hicachesync.sim.environment.Fault;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The waiting-queue timeout of {@code unified} ({@code scheduler.py::_abort_on_waiting_timeout} @db570fe6;
 * HiCacheUnified.tla {@code SchedAbortCheck}, Knob wait_timeout): a request that has waited {@link
 * Fault#WAITING_TIMEOUT} is aborted ({@code release_aborted_request}, S6 when its prefetch holds host
 * memory). With {@link Fault#WAITING_TIMEOUT_LOCAL_CLOCK} (#27221) the wait is measured on each rank's own
 * clock, so ranks abort different requests; with {@link Fault#WAITING_TIMEOUT_BROADCAST} (#37143) it is the
 * number of steps waited, which every rank of a replica shares (the one decision, broadcast). Rank thread.
 */
final class WaitingTimeout {
  private final boolean localClock;
  private final Map<String, long[]> arrived = new HashMap<>();

  private WaitingTimeout(boolean localClock) {
    this.localClock = localClock;
  }

  /** Returns the timeout {@code faults} asks for, or null when the run has none. */
  static WaitingTimeout of(Set<Fault> faults) {
    if (faults.contains(Fault.WAITING_TIMEOUT_LOCAL_CLOCK)) {
      return new WaitingTimeout(true);
    }
    return faults.contains(Fault.WAITING_TIMEOUT_BROADCAST) ? new WaitingTimeout(false) : null;
  }

  /** Request {@code rid} joined the waiting queue at {@code step}, this rank's clock at {@code tick}. */
  void arrived(String rid, long step, long tick) {
    arrived.put(rid, new long[] {step, tick});
  }

  /** Returns whether {@code rid} has waited too long at {@code step} ({@code tick} on this rank's clock). */
  boolean expired(String rid, long step, long tick) {
    long[] at = arrived.get(rid);
    return at != null && (localClock ? tick - at[1] : step - at[0]) >= Fault.WAITING_TIMEOUT;
  }

  /** Request {@code rid} left the waiting queue. */
  void left(String rid) {
    arrived.remove(rid);
  }
}
