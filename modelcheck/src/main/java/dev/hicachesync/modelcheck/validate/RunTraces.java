package dev.hicachesync.modelcheck.validate;

import dev.hicachesync.trace.TraceFeature;
import dev.hicachesync.trace.TraceHeader;

/**
 * Traces of a run's own loop (the simulator's, {@code simulate --trace}; the Mooncake replay; a soak): which trace
 * spec follows them ({@code spec/TraceHiCacheRun.tla}: every event against the protocol rule it must follow,
 * the cache's own computation taken from the trace) and what it still refuses.
 *
 * <p>A trace goes here when it uses a feature the model-shaped trace specs ({@code TraceHiCacheSync.tla},
 * {@code TraceHiCachePipeline.tla}) cannot follow ({@link TraceHeader#unfollowable}): the workload's RECV,
 * several running requests, decode, shared prefixes, write-through at insert, keys of many pages with storage
 * on, write_back, write_through_selective.
 */
public final class RunTraces {
  /** The trace spec of a run's own loop. */
  public static final String SPEC = "TraceHiCacheRun";
  /** What its verdicts name: the protocol whose rules it checks. */
  public static final String MODEL = "HiCacheSync's protocol rules (" + SPEC + ")";

  private RunTraces() {}

  /**
   * Whether {@code h}'s run is one for {@link #SPEC}: a run's own loop (feature {@code workload_recv}, any
   * version), or a run of another version than unified with a feature the model-shaped specs cannot follow.
   */
  public static boolean applies(TraceHeader h) {
    return h.used().contains(TraceFeature.WORKLOAD_RECV)
        || !"unified".equals(h.version()) && h.unfollowable() != null;
  }

  /** Why {@link #SPEC} cannot follow {@code h}'s run (one line, for exit 2), or null when it can. */
  public static String refusal(TraceHeader h) {
    // Every feature a run's own loop records is followed; PP > 1 too: stage 0 by every rule, a later stage of
    // a forwarding pipeline (its decisions come over the pipeline channel, unrecorded) through agreement at RECV.
    return null;
  }
}
