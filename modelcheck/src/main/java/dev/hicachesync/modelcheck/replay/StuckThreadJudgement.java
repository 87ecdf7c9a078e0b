package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.sim.Divergence;
import dev.hicachesync.sync.Invariant;
import java.util.List;
import java.util.Map;

/**
 * The replay's judgement of a liveness property that says a thread never waits in a collective for ever ({@code
 * PrefetchThreadNeverStuck}): TLC's counterexample is a lasso in which one rank's thread stays posted at a sync
 * point its peer's thread never joins (the peer's prefetch thread died, {@code PrefetchThreadDies}); the
 * implementation cannot wait for ever, so its form of the hang is that collective's timeout ({@code
 * CollectiveMatching}: the fabric names the call that never completed). The bug reproduces when the run, having
 * agreed with the spec at every RECV before it, fails by the collective's timeout at the step the spec's thread got
 * stuck, and breaks no other invariant of the cfg.
 *
 * <p>{@code HiCacheUnified.tla}'s bug {@code PFDIE} ({@code unified_pf_thread_dies}) shows the same hang as {@code
 * RequestsProgress}: the query of one rank's prefetch thread raises ({@code PfRaise}) and the thread dies, its peer's
 * S7 never completes, and under {@code wait_complete} the request waits for that prefetch for ever. Such a lasso is
 * this judgement's when the schedule kills a prefetch thread ({@link #applies}); another {@code RequestsProgress}
 * lasso (no thread died) is not.
 *
 * <p>What the implementation shows less than the spec: a spec-shaped run takes the prefetch thread's pass on the
 * scheduler's thread, so the stuck S7 stops that rank's scheduler too and the run ends there; the spec's schedulers
 * go on around the stuck thread (the lasso's cycle), and those later steps are not compared.
 */
final class StuckThreadJudgement {

  /**
   * Each such liveness property and the sync point its stuck thread waits in: the thread's own property, and (a
   * thread of the schedule having died) the requests' progress that waits on it.
   */
  static final Map<String, String> STUCK_IN = Map.of("PrefetchThreadNeverStuck", "S7", "RequestsProgress", "S7");

  private StuckThreadJudgement() {}

  /** Whether {@code verdict}, on a schedule that kills the prefetch threads {@code deaths} says, is one this judgement decides. */
  static boolean applies(Verdict verdict, PrefetchThreadDeaths deaths) {
    return verdict.kind() == Verdict.Kind.VIOLATES && STUCK_IN.containsKey(verdict.property()) && deaths.any();
  }

  /** The schedule's lines that say which thread dies and which waits for ever. */
  static List<String> describe(PrefetchThreadDeaths deaths, int ranks) {
    List<String> lines = new java.util.ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      for (int step = 0; step <= 1000; step++) {
        if (deaths.dead(r, step)) {
          lines.add("schedule rank " + r + "'s prefetch thread dies before its pass of step " + step);
          break;
        }
      }
    }
    if (deaths.stuckRank() >= 0) {
      lines.add("schedule rank " + deaths.stuckRank() + "'s S7 of step " + deaths.stuckStep()
          + " never completes in the spec (its thread waits there for ever)");
    }
    return lines;
  }

  /**
   * The outcome of bug model {@code model}'s replay whose run ended with {@code d} (null: no violation) after
   * agreeing with the spec at every RECV before it.
   */
  static ReplayReport judge(String model, String schedule, String specSide, String implSide, List<String> lines,
      Verdict verdict, Divergence d, PrefetchThreadDeaths deaths, List<String> invariants) {
    String site = STUCK_IN.get(verdict.property());
    int step = deaths.stuckStep();
    if (step < 0) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines,
          JavaReplay.SPEC_WRONG + "TLC reports " + verdict.property() + " but no thread of the counterexample's"
              + " last state is posted at " + site);
    }
    List<String> others = d == null ? List.of() : d.invariants().stream().filter(i -> i != Invariant.CollectiveMatching)
        .map(Enum::name).filter(invariants::contains).toList();
    if (d == null || d.invariant() != Invariant.CollectiveMatching || d.step() != step || !others.isEmpty()) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines,
          JavaReplay.IMPL_WRONG + "the spec's rank " + deaths.stuckRank() + " waits for ever in " + site + " from step "
              + step + " (" + verdict.property() + "), the implementation "
              + (d == null ? "never fails a collective" : "breaks " + String.join(", ", d.invariants().stream()
                  .map(Enum::name).toList()) + " at step " + d.step()));
    }
    return new ReplayReport(model, schedule, ReplayReport.Outcome.SAME_VIOLATION, specSide, implSide, lines, "");
  }
}
