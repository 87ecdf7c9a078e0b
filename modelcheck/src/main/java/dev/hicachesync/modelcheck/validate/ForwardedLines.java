package dev.hicachesync.modelcheck.validate;

import dev.hicachesync.trace.CollectiveRecord;
import dev.hicachesync.trace.Trace;
import dev.hicachesync.trace.TraceHeader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The lines on which a later pipeline stage logs a decision it received from the stage before it (group kind
 * {@code pipe}), checked by the rules {@code TraceHiCacheRun.tla} applies to them (R8: the decision the stage
 * before made; R5: the member pops exactly it), for traces that {@code TraceHiCachePipeline.tla} follows. That spec
 * moves a later stage unlogged, forced by stage 0's messages, and sees it only through its snapshot at the next
 * RECV; without this check, a line whose pops or decision were not those forwarded was never read.
 */
final class ForwardedLines {
  private static final Set<String> POP_SITES = Set.of("S1", "S2", "S3", "S123");

  private final int stageSize;
  /** The result of each scheduler decision: rank/step/site/n (the n-th decision there) to the last stage's result. */
  private final Map<String, List<Long>> decisions = new HashMap<>();
  private final Map<String, Integer> pipeLinesSeen = new HashMap<>();

  private ForwardedLines(TraceHeader h) {
    this.stageSize = h.dp() * h.cp() * h.tp();
  }

  /** The scheduler decisions of {@code trace}'s ranks, for the checks of its {@code pipe} lines. */
  static ForwardedLines of(Trace trace) {
    ForwardedLines f = new ForwardedLines(trace.header());
    Map<String, Integer> started = new HashMap<>();
    for (Trace.Line line : trace.events()) {
      if (line.record() instanceof CollectiveRecord c && c.channel().equals("sched") && !c.site().equals("RECV")) {
        String at = c.rank() + "/" + c.step() + "/" + c.site();
        int n = c.stage() == 1 ? started.merge(at, 1, Integer::sum) : started.getOrDefault(at, 1);
        f.decisions.put(at + "/" + n, c.result()); // a later stage of the same decision overwrites the earlier
      }
    }
    return f;
  }

  /**
   * Why {@code pipe} (a later stage's received decision, in trace order) breaks R8 or R5, or empty. A stage before
   * it that logged no decision there (every group of it a singleton) leaves R8 to the agreement at RECV.
   */
  Optional<String> mismatch(CollectiveRecord pipe) {
    String at = pipe.rank() + "/" + pipe.step() + "/" + pipe.site();
    int n = pipeLinesSeen.merge(at, 1, Integer::sum);
    if (!pipe.value().equals(pipe.result())) {
      return Optional.of("rank " + pipe.rank() + " logged " + pipe.value() + " as the " + pipe.site()
          + " decision it received and " + pipe.result() + " as its result (R8: one decision)");
    }
    if (POP_SITES.contains(pipe.site()) && pipe.popped() != null && !pipe.popped().equals(pipe.result())) {
      return Optional.of("rank " + pipe.rank() + " popped " + pipe.popped() + " at " + pipe.site()
          + " for the forwarded decision " + pipe.result() + " (R5: a member pops exactly the decision)");
    }
    int up = pipe.rank() - stageSize;
    List<Long> made = decisions.get(up + "/" + pipe.step() + "/" + pipe.site() + "/" + n);
    if (made != null && !made.equals(pipe.result())) {
      return Optional.of("rank " + pipe.rank() + " received " + pipe.result() + " as " + pipe.site() + " of step "
          + pipe.step() + ", rank " + up + " of the stage before decided " + made + " (R8: the forwarded decision)");
    }
    return Optional.empty();
  }
}
