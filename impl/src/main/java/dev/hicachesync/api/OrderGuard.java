package dev.hicachesync.api;

import dev.hicachesync.collective.CollectiveException;
import dev.hicachesync.controller.CacheController;

/**
 * What a rank does when its scheduler skips a call of the step order: it shows the skip to its peers before
 * it fails. A class of its own because this is the one place where the order ({@link CallOrder}, a pure
 * state machine) meets the controller's collectives, and the reason for the hand-over is subtle enough to
 * keep out of {@link HiCacheRank}'s API methods. Scheduler thread only.
 */
final class OrderGuard {
  private final CallOrder order;
  private final CacheController controller;

  OrderGuard(CallOrder order, CacheController controller) {
    this.order = order;
    this.controller = controller;
  }

  /**
   * Records {@code call} in the step order; when it skipped a required call, fails this rank, after showing
   * the skip to the ranks that wait for it: they wait in the event check's sync point (the skipped one, or
   * the one of the step this rank's next call belongs to), so the rank makes that sync point's first
   * collective, whose stamp fails every member there with the rank, its step and the skipped call. A skipped
   * prefetch pass is handed over first: the peers' event checks may wait for their prefetch threads, which
   * wait for this rank's S7.
   *
   * @throws CallOrderException naming the call the order expected
   */
  void enter(SchedulerCall call) {
    CallOrderException local = order.enter(call);
    if (local == null) {
      return;
    }
    try {
      if (order.skipped() == SchedulerCall.RUN_PREFETCH_THREAD) {
        controller.runPrefetchPass();
      }
      controller.checkHicacheEvents(); // fails at its first stamped collective, on every member
    } catch (CallOrderException | CollectiveException e) {
      local.addSuppressed(e);
    }
    throw local; // this rank fails with the call it expected (its sync point, if any, showed the skip)
  }
}
