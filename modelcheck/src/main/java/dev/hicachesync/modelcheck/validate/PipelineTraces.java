package dev.hicachesync.modelcheck.validate;

import dev.hicachesync.trace.TraceHeader;
import java.util.List;

/**
 * Traces with PP > 1: which trace spec follows them ({@code spec/TraceHiCachePipeline.tla}, over {@code
 * HiCachePipeline.tla} with {@code PPSync = "forward"}), what part of PP it cannot follow, and the constants
 * that module has beyond {@code TraceHiCacheSync}'s.
 */
public final class PipelineTraces {
  /** The trace spec of a run with PP > 1. */
  public static final String SPEC = "TraceHiCachePipeline";
  /** The protocol module it extends, for reports. */
  public static final String MODEL = "HiCachePipeline";

  private PipelineTraces() {}

  /** Whether {@code h}'s run is one for {@link #SPEC}. */
  public static boolean applies(TraceHeader h) {
    return h.pp() > 1;
  }

  /**
   * Why {@link #SPEC} cannot follow {@code h}'s run (one line, for exit 2), or null when it can or PP is 1.
   * pre20460 has no cross-stage sync (each stage alone: B6), which HiCachePipeline has no version for; with
   * storage on the simulator keeps revokes in their own queue (the module folds them into host releases) and
   * its prefetch thread's pp-group reduction is not traced.
   */
  public static String refusal(TraceHeader h) {
    if (!applies(h)) {
      return null;
    }
    if (!List.of("post20460", "merged").contains(h.version())) {
      return "version " + h.version() + " with PP " + h.pp() + " is not validated: " + SPEC + ".tla follows "
          + MODEL + ".tla's forwarded decisions (post20460, merged); " + h.version() + " has none across stages";
    }
    if (h.storage()) {
      return "the trace uses feature 'storage' with PP " + h.pp() + ", which " + SPEC + ".tla cannot follow: "
          + MODEL + ".tla folds the revoke queue into the host release queue and its S7 reduces over the pp"
          + " group, which the trace does not record";
    }
    if (!h.specKnobs().isEmpty()) {
      // The knob-carrying features (finish_in_step, aborts) are HiCacheSync.tla's; the pipeline module has no
      // such knobs, so it would check the run against a loop it did not run.
      return "the trace uses " + h.specKnobs() + " with PP " + h.pp() + ", which " + SPEC + ".tla cannot follow: "
          + "those knobs are " + "HiCacheSync.tla's";
    }
    return null;
  }

  /**
   * MaxSteps: every step of the run is logged and compared, so the number of RECV events (stage 0 starts one
   * step per RECV), at least 1.
   */
  static int maxSteps(List<SpecEvent> events) {
    long recvs = events.stream()
        .filter(e -> e.first() instanceof dev.hicachesync.trace.CollectiveRecord c && c.site().equals("RECV"))
        .count();
    return (int) Math.max(1, recvs);
  }

  /** The policy constant: with storage off no prefetch exists and the module never reads it. */
  static String policy(TraceHeader h) {
    return List.of("wait_complete", "timeout").contains(h.policy()) ? h.policy() : "timeout";
  }
}
