package dev.hicachesync.modelcheck.replay;

import static dev.hicachesync.modelcheck.replay.TraceReads.elements;
import static dev.hicachesync.modelcheck.replay.TraceReads.field;
import static dev.hicachesync.modelcheck.replay.TraceReads.rank;

import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The prefetch timeouts of a {@code HiCacheSync.tla} counterexample ({@code timeout} policy, spec action {@code
 * TimeoutFires(r, i)}: request i's prefetch has waited long enough on rank r's clock), per rank: the step from
 * which each request's timeout has fired there. A timeout taken in step k's window is, for the implementation, seen
 * by S4 from step k + 1 on ({@code ControllerEnv.timeoutFires}, answered by {@link ScheduledEnvironment}). Filled by
 * {@link SpecSchedule} step by step.
 */
final class PrefetchTimeouts {
  private final List<Map<Integer, Integer>> firedFrom = new ArrayList<>();

  PrefetchTimeouts(int ranks) {
    for (int r = 0; r < ranks; r++) {
      firedFrom.add(new HashMap<>());
    }
  }

  /** Reads one step of the trace for rank {@code r} (spec step {@code step}). */
  void track(TraceState before, TraceState now, int r, int step) {
    if (!now.action().equals("TimeoutFires")) {
      return;
    }
    List<TlaValue> a = elements(rank(before, "pf", r));
    List<TlaValue> b = elements(rank(now, "pf", r));
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      if (fired(b.get(i)) && !fired(a.get(i))) {
        firedFrom.get(r).putIfAbsent(i + 1, step + 1);
      }
    }
  }

  private static boolean fired(TlaValue op) {
    return field(op, "to") instanceof TlaValue.Bool b && b.value();
  }

  /** Whether request {@code request}'s prefetch timeout has fired on rank {@code rank} by the implementation's step {@code step}. */
  boolean fired(int rank, int request, long step) {
    return rank < firedFrom.size() && step >= firedFrom.get(rank).getOrDefault(request, Integer.MAX_VALUE);
  }
}
