package dev.hicachesync.api;

/**
 * The calls of {@link HiCacheRank} whose order a rank enforces, each in its phase of {@link StepOrder} (the one
 * written order of a step) and at the {@linkplain #position() position} that phase gives it. A step begins with
 * {@link #RUN_PREFETCH_THREAD}; the calls of one position may come in any order and any number of times
 * (admission and the running batch interleave in an engine); {@linkplain #required() required} calls come
 * exactly once per step. The rank enforces it at run time ({@link CallOrderException}); calls not listed
 * ({@code matchPrefix}, {@code evict}, {@code awaitLoaded}, the views, {@code beforeRecv}) change nothing
 * every rank must agree on at a sync point and may come anywhere.
 *
 * <p>SGLang's scheduler makes them in this order: the prefetch thread's pass, {@code process_input_requests}
 * (prefetch and abort of new requests), {@code check_hicache_events} at the start of {@code
 * get_new_batch_prefill}, then admission and the batch's results.
 */
public enum SchedulerCall {
  /** S7 on the prefetch thread: begins the step. */
  RUN_PREFETCH_THREAD("runPrefetchThread", StepOrder.PREFETCH_THREAD, true),
  /** A new request's storage prefetch. */
  PREFETCH_FROM_STORAGE("prefetchFromStorage", StepOrder.ARRIVALS, false),
  /** An aborted waiting request (S6). */
  RELEASE_ABORTED_REQUEST("releaseAbortedRequest", StepOrder.ABORTS, false),
  /** S1–S3 (S123): once per step, idle or not. */
  CHECK_HICACHE_EVENTS("checkHicacheEvents", StepOrder.EVENTS, true),
  /** Admission: a waiting request's prefetch (S4, S5). */
  CHECK_PREFETCH_PROGRESS("checkPrefetchProgress", StepOrder.ADMIT, false),
  /** Admission: the host hit back to the device. */
  INIT_LOAD_BACK("initLoadBack", StepOrder.ADMIT, false),
  /** Admission: pages for the request. */
  ALLOC_FOR_EXTEND("allocForExtend", StepOrder.ADMIT, false),
  /** Admission: the prompt into the tree. */
  CACHE_UNFINISHED_REQ("cacheUnfinishedReq", StepOrder.ADMIT, false),
  /** The running batch: pages for the output. */
  ALLOC_FOR_DECODE("allocForDecode", StepOrder.FINISH, false),
  /** The running batch: a finished request into the tree. */
  CACHE_FINISHED_REQ("cacheFinishedReq", StepOrder.FINISH, false);

  private final String method;
  private final StepOrder phase;
  private final int position;
  private final boolean required;

  SchedulerCall(String method, StepOrder phase, boolean required) {
    this.method = method;
    this.phase = phase;
    this.position = positionOf(phase);
    this.required = required;
  }

  /** Returns the call's position in the step, from 0; calls of one position may interleave. */
  public int position() {
    return position;
  }

  /**
   * The position of {@code phase}'s calls: the phases between two once-per-step calls share one position,
   * since an engine interleaves them (arrivals with aborts in {@code process_input_requests}; admission with
   * the running batch).
   */
  private static int positionOf(StepOrder phase) {
    int once = 0;
    for (StepOrder p : StepOrder.step(StepOrder.Finish.END_OF_STEP)) {
      boolean marks = p.repeat() == StepOrder.Repeat.ONCE && !p.calls().isEmpty();
      if (marks) {
        once++;
      }
      if (p == phase) {
        return marks ? 2 * once - 2 : 2 * once - 1;
      }
    }
    throw new AssertionError(phase);
  }

  /** The phase of {@link StepOrder} the call belongs to. */
  public StepOrder phase() {
    return phase;
  }

  /** Returns the name of the {@link HiCacheRank} method. */
  public String method() {
    return method;
  }

  /** Returns whether every step makes this call, exactly once. */
  public boolean required() {
    return required;
  }

  /** Returns the required call at {@code position}, or null when the position has none. */
  static SchedulerCall requiredAt(int position) {
    for (SchedulerCall c : values()) {
      if (c.position == position && c.required) {
        return c;
      }
    }
    return null;
  }
}
