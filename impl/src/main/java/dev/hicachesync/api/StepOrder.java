package dev.hicachesync.api;

import java.util.ArrayList;
import java.util.List;

/**
 * The phases of one scheduler step, in the order every rank of a sync domain makes them, with the {@link
 * HiCacheRank} calls of each: the one written order of a step, which the simulator's loop, the worked example,
 * the engine trace test and the embedding guide's table all follow. The order is SGLang's normal event loop
 * ({@code event_loop_normal}: {@code recv_requests}, {@code process_input_requests}, {@code
 * get_next_batch_to_run} with its {@code check_hicache_events}, the batch, {@code process_batch_result}),
 * with the prefetch thread's pass at the step boundary, where {@code HiCacheSync.tla} runs it.
 *
 * <p>Why one order: collectives pair by order, and the calls that issue none still change the tree and the
 * pools that every rank must keep equal; a rank that makes another rank's calls in another order diverges
 * or hangs (B3, B10). A phase of {@link Repeat#ONCE} happens once per step; one of {@link Repeat#PER_REQUEST}
 * runs its calls once per request it handles (in queue order), zero times when there is none. Within a
 * phase the calls come in {@link #calls()} order, a request's calls ending early where the previous one says
 * so (a prefetch still running, no device memory).
 *
 * <p>One variant, where a batch's result is processed ({@link Finish}): at the end of the step that ran it
 * (the order above) or right after the next step's RECV ({@code HiCacheSync.tla}'s default, as SGLang's
 * overlap loop, {@code event_loop_overlap}, processes the previous batch's result after its next RECV).
 */
public enum StepOrder {
  /** The prefetch thread's pass: S7 for every prefetch issued last step. A no-op without storage. */
  PREFETCH_THREAD(Repeat.ONCE, "prefetch_thread_func", "runPrefetchThread"),
  /** The request broadcast: the engine's own collective (RECV), not a call of the rank. */
  RECV(Repeat.ONCE, "recv_requests"),
  /** Each new request: its prefix match and storage prefetch. */
  ARRIVALS(Repeat.PER_REQUEST, "process_input_requests", "matchPrefix", "prefetchFromStorage"),
  /** Each waiting request the client dropped: its prefetch released (S6 when it has one). */
  ABORTS(Repeat.PER_REQUEST, "abort_request", "releaseAbortedRequest"),
  /** The event check: S1, S2, S3 (S123 in {@code merged}), every step, idle or not. */
  EVENTS(Repeat.ONCE, "check_hicache_events", "checkHicacheEvents"),
  /** Admission, per waiting request in queue order: prefetch checks (S4, S5), load-back, allocation, insert. */
  ADMIT(Repeat.PER_REQUEST, "get_new_batch_prefill", "checkPrefetchProgress", "matchPrefix", "initLoadBack",
      "allocForExtend", "cacheUnfinishedReq"),
  /** Each running request that finished: its output's pages and its insertion. */
  FINISH(Repeat.PER_REQUEST, "process_batch_result", "allocForDecode", "cacheFinishedReq");

  /** How often a phase runs in a step. */
  public enum Repeat {
    /** Once per step. */
    ONCE,
    /** Once per request the phase handles, in queue order; not at all when there is none. */
    PER_REQUEST
  }

  /** Where a batch's result is processed ({@link #FINISH}). */
  public enum Finish {
    /** At the end of the step that ran it: SGLang's normal loop, the simulator's. */
    END_OF_STEP,
    /** Right after the next step's RECV: {@code HiCacheSync.tla}'s default (knob {@code finish_in_step} off). */
    AFTER_NEXT_RECV
  }

  private final Repeat repeat;
  private final String sglang;
  private final List<String> calls;

  StepOrder(Repeat repeat, String sglang, String... calls) {
    this.repeat = repeat;
    this.sglang = sglang;
    this.calls = List.of(calls);
  }

  /** How often the phase runs in a step. */
  public Repeat repeat() {
    return repeat;
  }

  /** The SGLang scheduler function the phase is. */
  public String sglang() {
    return sglang;
  }

  /** The {@link HiCacheRank} methods the phase calls, in order (none for {@link #RECV}, the engine's own). */
  public List<String> calls() {
    return calls;
  }

  /** The phases of a step, in order, with a batch's result processed at {@code finish}. */
  public static List<StepOrder> step(Finish finish) {
    List<StepOrder> order = new ArrayList<>(List.of(values()));
    if (finish == Finish.AFTER_NEXT_RECV) {
      order.remove(FINISH);
      order.add(order.indexOf(RECV) + 1, FINISH);
    }
    return List.copyOf(order);
  }
}
