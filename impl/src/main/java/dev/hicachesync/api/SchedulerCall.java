package dev.hicachesync.api;

/**
 * The written order of one scheduler step: the calls of {@link HiCacheRank} that every rank of a sync domain
 * makes in the same order, each at its {@linkplain #position() position} in the step. A step begins with
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
  RUN_PREFETCH_THREAD("runPrefetchThread", 0, true),
  /** A new request's storage prefetch. */
  PREFETCH_FROM_STORAGE("prefetchFromStorage", 1, false),
  /** An aborted waiting request (S6). */
  RELEASE_ABORTED_REQUEST("releaseAbortedRequest", 1, false),
  /** S1–S3 (S123): once per step, idle or not. */
  CHECK_HICACHE_EVENTS("checkHicacheEvents", 2, true),
  /** Admission: a waiting request's prefetch (S4, S5). */
  CHECK_PREFETCH_PROGRESS("checkPrefetchProgress", 3, false),
  /** Admission: the host hit back to the device. */
  INIT_LOAD_BACK("initLoadBack", 3, false),
  /** Admission: pages for the request. */
  ALLOC_FOR_EXTEND("allocForExtend", 3, false),
  /** Admission: the prompt into the tree. */
  CACHE_UNFINISHED_REQ("cacheUnfinishedReq", 3, false),
  /** The running batch: pages for the output. */
  ALLOC_FOR_DECODE("allocForDecode", 3, false),
  /** The running batch: a finished request into the tree. */
  CACHE_FINISHED_REQ("cacheFinishedReq", 3, false);

  private final String method;
  private final int position;
  private final boolean required;

  SchedulerCall(String method, int position, boolean required) {
    this.method = method;
    this.position = position;
    this.required = required;
  }

  /** Returns the name of the {@link HiCacheRank} method. */
  public String method() {
    return method;
  }

  /** Returns the call's position in the step, from 0; calls of one position may interleave. */
  public int position() {
    return position;
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
