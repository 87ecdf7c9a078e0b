package dev.hicachesync.modelcheck.replay;

import static dev.hicachesync.modelcheck.replay.TraceReads.elements;
import static dev.hicachesync.modelcheck.replay.TraceReads.field;
import static dev.hicachesync.modelcheck.replay.TraceReads.number;
import static dev.hicachesync.modelcheck.replay.TraceReads.rank;

import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.ArrayList;
import java.util.List;

/**
 * The sidecar page reads of a {@code HiCacheSync.tla} counterexample (spec action {@code StorageReadsSidecarPage}:
 * a prefetch reads the sidecar page of one of its hit pages), per rank in order: the step from which each read has
 * landed, and whether it failed (the op's count of sidecar successes, {@code ss}, did not grow). Answered to the
 * implementation's {@code controller.SidecarPool} by {@link ScheduledEnvironment}; filled by {@link SpecSchedule}
 * step by step.
 */
final class SidecarReads {
  private final List<List<SpecSchedule.Read>> reads = new ArrayList<>();

  SidecarReads(int ranks) {
    for (int r = 0; r < ranks; r++) {
      reads.add(new ArrayList<>());
    }
  }

  /** Reads one step of the trace for rank {@code r} (spec step {@code step}). */
  void track(TraceState before, TraceState now, int r, int step) {
    if (!now.action().equals("StorageReadsSidecarPage")) {
      return;
    }
    List<TlaValue> a = elements(rank(before, "pf", r));
    List<TlaValue> b = elements(rank(now, "pf", r));
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      if (!a.get(i).equals(b.get(i))) {
        reads.get(r).add(new SpecSchedule.Read(step + 1,
            number(field(b.get(i), "ss")) == number(field(a.get(i), "ss"))));
      }
    }
  }

  /** Rank {@code rank}'s sidecar page reads, in order. */
  List<SpecSchedule.Read> of(int rank) {
    return reads.get(rank);
  }
}
