package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.sim.Divergence;
import dev.hicachesync.sync.Invariant;
import java.util.List;
import java.util.Map;

/**
 * The replay's judgement of a liveness property that says a thread never waits in a collective for ever ({@code
 * PrefetchThreadNeverStuck}, {@code AsyncNeverStuck}): TLC's counterexample is a lasso in which one rank's thread
 * stays posted at a sync point its peer's thread never joins (the peer's prefetch thread died, {@code
 * PrefetchThreadDies}; the peer never issued its asynchronous S123, knob {@code async_rank_off}); the
 * implementation cannot wait for ever, so its form of the hang is that collective's timeout ({@code
 * CollectiveMatching}: the fabric names the call that never completed; an asynchronous call's timeout is thrown by
 * the next step's wait on its handle). The bug reproduces when the run, having agreed with the spec at every RECV
 * before it, fails by the collective's timeout at the step the spec's thread got stuck (for the asynchronous S123:
 * the step whose event check waits on the handle), and breaks no other invariant of the cfg.
 *
 * <p>{@code HiCacheUnified.tla}'s bug {@code PFDIE} ({@code unified_pf_thread_dies}) shows the same hang as {@code
 * RequestsProgress}: the query of one rank's prefetch thread raises ({@code PfRaise}) and the thread dies, its peer's
 * S7 never completes, and under {@code wait_complete} the request waits for that prefetch for ever. Such a lasso is
 * this judgement's when the schedule kills a prefetch thread ({@link #applies}) and leaves a peer's posted at S7;
 * a lasso in which every rank's prefetch thread died (none waits at S7, the request still waits for ever) is
 * {@link LassoJudgement}'s, and another {@code RequestsProgress} lasso (no thread died) is neither's.
 *
 * <p>What the implementation shows less than the spec: a spec-shaped run takes the prefetch thread's pass on the
 * scheduler's thread, so the stuck S7 stops that rank's scheduler too and the run ends there; the spec's schedulers
 * go on around the stuck thread (the lasso's cycle), and those later steps are not compared.
 */
final class StuckThreadJudgement {

  /**
   * Where a property's stuck thread waits: the sync point; whether the call is the asynchronous S123's (else a
   * prefetch thread's S7); whether the judgement needs a prefetch thread of the schedule to die (an S7 waits for
   * ever only on a dead peer's thread here; the requests' progress is broken by other lassos too).
   */
  record StuckIn(String site, boolean async, boolean needsDeath) {}

  /** Each such liveness property and where its stuck thread waits. */
  static final Map<String, StuckIn> STUCK_IN = Map.of(
      "PrefetchThreadNeverStuck", new StuckIn("S7", false, true),
      "AsyncNeverStuck", new StuckIn("S123", true, false),
      "RequestsProgress", new StuckIn("S7", false, true));

  private StuckThreadJudgement() {}

  /** The call that never completes in {@code trace} ({@code s}), a counterexample of {@code verdict} ({@link #applies}). */
  static StuckCall stuckCall(SpecSchedule s, ErrorTrace trace, Verdict verdict) {
    return STUCK_IN.get(verdict.property()).async() ? AsyncHandleWaits.of(trace, s.ranks()) : s.deaths();
  }

  /** Whether {@code verdict}, on a schedule that kills the prefetch threads {@code deaths} says, is one this judgement decides. */
  static boolean applies(Verdict verdict, PrefetchThreadDeaths deaths) {
    StuckIn in = STUCK_IN.get(verdict.property());
    return verdict.kind() == Verdict.Kind.VIOLATES && in != null && (!in.needsDeath() || deaths.any());
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
      Verdict verdict, Divergence d, StuckCall deaths, List<String> invariants) {
    String site = STUCK_IN.get(verdict.property()).site();
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
