package dev.hicachesync.trace;

import java.util.HashMap;
import java.util.Map;

/**
 * The checks of a trace's fields that TLC does not make, so that every field the format carries is
 * checked by someone (an edited {@code step} and a changed {@code Policy} were accepted).
 *
 * <ul>
 *   <li>At least one event: a header alone is no run.
 *   <li>{@code step}: the spec has no step counter, so the reader checks it. A rank's scheduler logs
 *       one {@code RECV} per step, its k-th (from 0) at step k, and its other scheduler collectives at
 *       the step of the {@code RECV} before them; any event's step never decreases along a rank.
 *   <li>{@code Policy} with {@code StorageOn}: under {@code best_effort} the scheduler never enters
 *       S4 ({@code check_prefetch_progress}), so an S4 event contradicts the header; without storage no
 *       prefetch exists, so no S4, S5, S6 or S7 event may appear.
 * </ul>
 */
final class TraceConsistency {
  private TraceConsistency() {}

  /** Throws a {@link TraceFormatException} naming the first line that contradicts the rules above. */
  static void check(String name, Trace trace, int headerLines) throws TraceFormatException {
    if (trace.events().isEmpty()) {
      throw new TraceFormatException(name, headerLines + 1, "no events after the header: a trace of a run "
          + "holds at least one");
    }
    TraceHeader h = trace.header();
    Map<Integer, Long> recvs = new HashMap<>();
    Map<Integer, Long> last = new HashMap<>();
    for (Trace.Line line : trace.events()) {
      TraceRecord e = line.record();
      long step = e.step();
      if (step < 0) {
        throw new TraceFormatException(name, line.number(), "field 'step' must be >= 0, got " + step);
      }
      Long before = last.put(e.rank(), step);
      if (before != null && step < before) {
        throw new TraceFormatException(name, line.number(), "field 'step' of rank " + e.rank() + " goes back from "
            + before + " to " + step);
      }
      if (!(e instanceof CollectiveRecord c)) {
        continue;
      }
      if (c.channel().equals("sched")) {
        long seen = recvs.getOrDefault(c.rank(), 0L);
        long expected = c.site().equals("RECV") ? seen : seen - 1;
        if (step != expected) {
          throw new TraceFormatException(name, line.number(), "field 'step' = " + step + " but rank " + c.rank()
              + " is at step " + expected + " (its " + (seen + (c.site().equals("RECV") ? 1 : 0))
              + ". RECV starts step " + (c.site().equals("RECV") ? seen : seen - 1) + ")");
        }
        if (c.site().equals("RECV")) {
          recvs.put(c.rank(), seen + 1);
        }
      }
      boolean prefetchSite = c.site().equals("S4") || c.site().equals("S5") || c.site().equals("S6")
          || c.site().equals("S7");
      if (!h.storage() && prefetchSite) {
        throw new TraceFormatException(name, line.number(), "site " + c.site() + " is a prefetch collective, but "
            + "the header says StorageOn false (no prefetch exists)");
      }
      if (h.policy().equals("best_effort") && c.site().equals("S4")) {
        throw new TraceFormatException(name, line.number(), "site S4 (check_prefetch_progress) under the "
            + "header's Policy best_effort, which never enters it: the header does not match the run");
      }
    }
  }
}
