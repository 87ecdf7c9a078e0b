package dev.hicachesync.trace;

import java.util.Locale;

/**
 * What a recorded run used, listed in its header's {@code Features} field, and whether {@code
 * spec/TraceHiCacheSync.tla} (with PP > 1, {@code spec/TraceHiCachePipeline.tla}) can follow a run that uses
 * it. {@code validate-trace} refuses (exit 2, one line
 * naming the feature) a trace with a feature the spec cannot follow, instead of reporting its first event
 * as unmatched: the difference would be the mapping's, not the protocol's.
 */
public enum TraceFeature {
  /** The L3 storage tier (S7 prefetches, S3's revoke and host-release queues, S4, S5). */
  STORAGE(null),
  /** Keys of more than one page (storage off). */
  MULTI_PAGE_KEYS(null),
  /** Keys of more than one page with storage on. */
  MULTI_PAGE_KEYS_WITH_STORAGE("a partial prefetch insert is one node in the spec, a host node and a computed"
      + " child in the simulator"),
  /**
   * A request finishes ({@code cache_finished_req}, its write-through) at the end of the step that admitted it,
   * before the next RECV, as SGLang's normal event loop processes a batch's result; the spec follows it with
   * the knob {@code finish_in_step} (its default finishes a request right after the next RECV). A run without
   * it (older traces) is checked against the default.
   */
  FINISH_IN_STEP(null),
  /** RECV broadcasts the workload's arrivals (the simulator's own scheduler). */
  WORKLOAD_RECV("the spec's RECV is a MAX of the next request index, one request delivered at a time"),
  /** More than one request running at once. */
  SEVERAL_RUNNING("the spec runs one request at a time"),
  /** Decode steps: a request caches output tokens when it finishes. */
  DECODE("the spec's requests have no output tokens"),
  /** Aborted waiting requests (S6); the spec follows them with its knob {@code abort} (AbortArrives). */
  ABORTS(null),
  /**
   * Requests aborted while they run (a soak's {@code abort_running}): finished early, with what they decoded,
   * through {@code cache_finished_req} and no sync point, as SGLang's abort of a running request.
   */
  ABORTS_RUNNING("the spec aborts waiting requests only (AbortArrives); its requests have no decode steps to"
      + " abort in"),
  /** Prompts that share a prefix (node splits). */
  SHARED_PREFIXES("the spec's keys share no prefix: one radix node per key"),
  /**
   * Write-through starting at insert (SGLang's point) instead of when the request finishes. Followable with
   * {@link #FINISH_IN_STEP} (see {@link TraceHeader#unfollowable}): a request then finishes in the step that
   * admitted it, and nothing is observed between its insert and its finish.
   */
  WRITE_AT_INSERT("the spec starts write-through when the request finishes (followed only with finish_in_step:"
      + " the request then finishes in the step of its insert)"),
  /** The write_through_selective policy. */
  WRITE_THROUGH_SELECTIVE("the spec models write_through only"),
  /** The write_back policy. */
  WRITE_BACK("the spec models write_through only"),
  /**
   * More than one pipeline stage: followed by {@code spec/TraceHiCachePipeline.tla} (post20460 and merged,
   * storage off; {@code validate-trace} refuses the rest of PP by name before TLC runs).
   */
  PP(null);

  private final String whyNot;

  TraceFeature(String whyNot) {
    this.whyNot = whyNot;
  }

  /** The name in a trace header: the constant in lower case ({@code write_back}). */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Whether {@code TraceHiCacheSync.tla} can follow a run that uses this feature whatever else it uses (a
   * feature that is followable only with another one says false here; {@link TraceHeader#unfollowable} decides
   * on the whole set).
   */
  public boolean specFollows() {
    return whyNot == null;
  }

  /** The spec knob ({@code Knobs} of {@code HiCacheSync.tla}) a trace that uses this feature is checked with, or null. */
  public String specKnob() {
    return switch (this) {
      case FINISH_IN_STEP -> "finish_in_step";
      case ABORTS -> "abort";
      default -> null;
    };
  }

  /** Why the spec cannot follow it (null when it can). */
  public String whyNot() {
    return whyNot;
  }

  /** The feature named {@code label} in a header, or null. */
  public static TraceFeature byLabel(String label) {
    for (TraceFeature f : values()) {
      if (f.label().equals(label)) {
        return f;
      }
    }
    return null;
  }
}
