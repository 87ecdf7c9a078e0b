package dev.hicachesync.modelcheck.replay;

import static dev.hicachesync.modelcheck.replay.TraceReads.field;
import static dev.hicachesync.modelcheck.replay.TraceReads.number;
import static dev.hicachesync.modelcheck.replay.TraceReads.posted;
import static dev.hicachesync.modelcheck.replay.TraceReads.rank;

import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The storage reads of a {@code HiCacheUnified.tla} counterexample ({@code PfRead(r, k)}), read beside {@link
 * UnifiedSchedule}'s other choices: whether each fails (k below the hit) and when it lands, before the rank's
 * admission of the step when the spec's read comes first, else at the next step's start.
 */
final class UnifiedStorageReads {

  /**
   * One storage read of a rank (PfRead): the step it lands in, whether before that step's admission (the
   * spec's read comes before the rank's SchedAdmit) or at the step's start, and whether it fails (fewer pages
   * read than hit).
   */
  record Read(int step, boolean beforeAdmission, boolean fails) {}

  private final List<List<Read>> reads = new ArrayList<>();

  UnifiedStorageReads(int ranks) {
    for (int r = 0; r < ranks; r++) {
      reads.add(new ArrayList<>());
    }
  }

  /**
   * Reads the step {@code before} to {@code now}, after {@code recvs} completed RECVs (step {@code step}); a read
   * whose completion sync (S5) comes before the rank's own S123 adds step {@code step} to its {@code inStepPasses}.
   */
  void read(TraceState before, TraceState now, int recvs, int step, List<Set<Integer>> inStepPasses) {
    for (int r = 0; r < reads.size(); r++) {
      TlaValue pf = rank(now, "pf", r);
      if (field(pf, "st") instanceof TlaValue.Str st && st.value().equals("sync") && field(rank(before, "pf", r),
          "st") instanceof TlaValue.Str was && was.value().equals("read")) {
        String pc = rank(before, "pc", r) instanceof TlaValue.Str p ? p.value() : "";
        TlaValue.Rec call = posted(before, r, "sched");
        String site = call != null && call.fields().get("site") instanceof TlaValue.Str x ? x.value() : "";
        boolean beforeAdmit = recvs > 0 && (List.of("abort", "events", "pdload", "admit").contains(pc)
            || pc.equals("posted") && (site.equals("S123") || site.equals("S2")));
        reads.get(r).add(new Read(beforeAdmit ? step : recvs, beforeAdmit,
            number(field(pf, "loc")) < number(field(pf, "hit"))));
        if (pc.equals("abort") || pc.equals("events")) { // its completion sync (S5) before the rank's S123
          inStepPasses.get(r).add(step);
        }
      }
    }
  }

  /** Rank {@code rank}'s storage reads, in order. */
  List<Read> of(int rank) {
    return reads.get(rank);
  }

  /** The schedule's line on rank {@code rank}'s reads, or null when it has none. */
  String describe(int rank) {
    List<Read> rs = reads.get(rank);
    return rs.isEmpty() ? null : "schedule rank " + rank + " storage reads: " + String.join(" ", rs.stream()
        .map(x -> "[" + (x.fails() ? "fails" : "lands") + (x.beforeAdmission() ? " before the admission of step "
            : " from step ") + x.step() + "]").toList());
  }
}
