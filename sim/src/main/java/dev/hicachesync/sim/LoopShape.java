package dev.hicachesync.sim;

import dev.hicachesync.api.StepOrder;
import java.util.List;

/**
 * How the one scheduler loop ({@link RankEngine}) runs a step: its phases, in {@link StepOrder}'s one order,
 * and its limits. The simulator's own scheduler and the spec-shaped ones ({@link SpecShaped}, for {@code
 * --trace}) are values of this record over the same loop and the same public API calls, not several loops;
 * they differ only in where a batch's result is processed ({@link StepOrder.Finish}) and in the phases a
 * spec leaves out.
 *
 * @param phases the phases of one step: {@link StepOrder#step} of one {@link StepOrder.Finish}, perhaps with
 *     phases left out (never reordered)
 * @param maxRunning requests running at once (admission stops at it)
 * @param stopOnDivergence whether a divergence the domain leader finds stops the run at the next RECV; the
 *     spec-shaped RECV carries no stop flag, so there the ranks run on and the trace shows where they differ
 * @param settleStorage whether the loop waits, after the prefetch thread's pass and after a prefetch check
 *     that lets a request in, until every S7 outcome has arrived and every queued revoke and host release is
 *     ready: the spec has no storage-query latency and lands a page read atomically
 * @param writeThroughAtFinish whether write-through starts when a request finishes ({@code HiCacheSync.tla}'s
 *     point) instead of at insert (SGLang's {@code HiRadixCache.insert})
 */
record LoopShape(List<StepOrder> phases, int maxRunning, boolean stopOnDivergence, boolean settleStorage,
    boolean writeThroughAtFinish) {

  LoopShape {
    phases = List.copyOf(phases);
    if (!inOrder(phases, StepOrder.step(StepOrder.Finish.END_OF_STEP))
        && !inOrder(phases, StepOrder.step(StepOrder.Finish.AFTER_NEXT_RECV))) {
      throw new IllegalArgumentException("a loop's phases follow StepOrder (some left out, none moved): " + phases);
    }
  }

  /** The simulator's scheduler ({@code scheduler.py}'s normal loop, reduced to what the cache sees). */
  static LoopShape simulator(int maxRunning) {
    return new LoopShape(StepOrder.step(StepOrder.Finish.END_OF_STEP), maxRunning, true, false, false);
  }

  /**
   * The spec's scheduler ({@code HiCacheSync.tla}'s {@code Enter}/{@code Decide} chain): the prefetch thread
   * at the step boundary (the spec's EnvWindow), RECV, finish the running request, deliver the received one,
   * aborts, the event checks, admission; one request runs at a time.
   */
  static LoopShape spec() {
    return new LoopShape(StepOrder.step(StepOrder.Finish.AFTER_NEXT_RECV), 1, false, true, true);
  }

  /**
   * The spec's scheduler with the knob {@code finish_in_step} (SGLang's normal event loop, {@code
   * event_loop_normal}): {@link StepOrder}'s order as it is; write-through starts at insert ({@code
   * HiRadixCache.insert}); one request runs at a time, for the step that admitted it.
   */
  static LoopShape specInStep() {
    return new LoopShape(StepOrder.step(StepOrder.Finish.END_OF_STEP), 1, false, true, false);
  }

  /**
   * {@code HiCacheUnified.tla}'s scheduler: the phases of {@link #spec()} (the storage threads at the step
   * boundary, RECV, finish, deliver, the waiting-queue aborts of {@code SchedAbortCheck}, which happen only when
   * the run's timing decides one, S123, admission), one request at a time, storage settled; nothing
   * is written through at finish, since that spec has no write-through (the run is write_back with a device
   * pool that never fills). Its RECV is {@code SpecIntake}'s unified form (the spec's {@code RecvComplete}).
   */
  static LoopShape specUnified() {
    return new LoopShape(StepOrder.step(StepOrder.Finish.AFTER_NEXT_RECV), 1, false, true, false);
  }

  /** Whether {@code phases} is {@code order} with some phases left out. */
  private static boolean inOrder(List<StepOrder> phases, List<StepOrder> order) {
    int at = 0;
    for (StepOrder p : phases) {
      int i = order.subList(at, order.size()).indexOf(p);
      if (i < 0) {
        return false;
      }
      at += i + 1;
    }
    return true;
  }
}
