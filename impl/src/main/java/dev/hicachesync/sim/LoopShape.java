package dev.hicachesync.sim;

import java.util.List;

/**
 * How the one scheduler loop ({@link RankEngine}) runs a step: the order of its phases and its limits. The
 * simulator's own scheduler and the spec-shaped one ({@link SpecShaped}, for {@code --trace}) are two values
 * of this record over the same loop and the same public API calls, not two loops.
 *
 * @param phases the phases of one step, in order
 * @param maxRunning requests running at once (admission stops at it)
 * @param stopOnDivergence whether a divergence the domain leader finds stops the run at the next RECV; the
 *     spec-shaped RECV carries no stop flag, so there the ranks run on and the trace shows where they differ
 * @param settleStorage whether the loop waits, after the prefetch thread's pass and after a prefetch check
 *     that lets a request in, until every S7 outcome has arrived and every queued revoke and host release is
 *     ready: the spec has no storage-query latency and lands a page read atomically
 * @param writeThroughAtFinish whether write-through starts when a request finishes ({@code HiCacheSync.tla}'s
 *     point) instead of at insert (SGLang's {@code HiRadixCache.insert})
 */
record LoopShape(List<Phase> phases, int maxRunning, boolean stopOnDivergence, boolean settleStorage,
    boolean writeThroughAtFinish) {

  /** One phase of a scheduler step. */
  enum Phase {
    /** The prefetch thread's pass (S7), when storage is on. */
    PREFETCH_THREAD,
    /** RECV: the domain agrees on what arrives (the run's {@link Intake}); the run may stop here. */
    RECV,
    /** The event checks: S1–S3, or S123. */
    EVENTS,
    /** New requests: match, storage prefetch, queue. */
    ARRIVALS,
    /** Aborted waiting requests release their prefetch (S6). */
    ABORTS,
    /** Admission in queue order: prefetch checks (S4, S5), load-back, allocation, prefill, insert. */
    ADMIT,
    /** Running requests that are done: decode pages, cache the finished request. */
    FINISH
  }

  LoopShape {
    phases = List.copyOf(phases);
  }

  /** The simulator's scheduler ({@code scheduler.py}, reduced to what the cache sees). */
  static LoopShape simulator(int maxRunning) {
    return new LoopShape(List.of(Phase.RECV, Phase.PREFETCH_THREAD, Phase.EVENTS, Phase.ARRIVALS, Phase.ABORTS,
        Phase.ADMIT, Phase.FINISH), maxRunning, true, false, false);
  }

  /**
   * The spec's scheduler ({@code HiCacheSync.tla}'s {@code Enter}/{@code Decide} chain): the prefetch thread
   * at the step boundary (the spec's EnvWindow), RECV, finish the running request, deliver the received one,
   * the event checks, admission; one request runs at a time.
   */
  static LoopShape spec() {
    return new LoopShape(List.of(Phase.PREFETCH_THREAD, Phase.RECV, Phase.FINISH, Phase.ARRIVALS, Phase.ABORTS,
        Phase.EVENTS, Phase.ADMIT), 1, false, true, true);
  }

  /**
   * The spec's scheduler with the knob {@code finish_in_step} (SGLang's normal event loop, {@code
   * event_loop_normal}): the prefetch thread at the step boundary, RECV, the received request, the event
   * checks, admission, and the batch's result processed at the end of the step that ran it; write-through
   * starts at insert ({@code HiRadixCache.insert}); one request runs at a time, for the step that admitted it.
   */
  static LoopShape specInStep() {
    return new LoopShape(List.of(Phase.PREFETCH_THREAD, Phase.RECV, Phase.ARRIVALS, Phase.ABORTS, Phase.EVENTS,
        Phase.ADMIT, Phase.FINISH), 1, false, true, false);
  }

  /**
   * {@code HiCacheUnified.tla}'s scheduler: the same phases as {@link #spec()} (the storage threads at the step
   * boundary, RECV, finish, deliver, S123, admission), one request at a time, storage settled; nothing is
   * written through at finish, since that spec has no write-through (the run is write_back with a device pool
   * that never fills). Its RECV is {@code SpecIntake}'s unified form (the spec's {@code RecvComplete}).
   */
  static LoopShape specUnified() {
    return new LoopShape(List.of(Phase.PREFETCH_THREAD, Phase.RECV, Phase.FINISH, Phase.ARRIVALS, Phase.EVENTS,
        Phase.ADMIT), 1, false, true, false);
  }
}
