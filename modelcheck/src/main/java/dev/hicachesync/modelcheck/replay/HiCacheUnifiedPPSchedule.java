package dev.hicachesync.modelcheck.replay;

import static dev.hicachesync.modelcheck.replay.TraceReads.number;
import static dev.hicachesync.modelcheck.replay.TraceReads.rank;

import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a {@code HiCacheUnifiedPP.tla} counterexample schedules, in the steps of each stage: when the request's
 * KV bootstrap completes ({@code Bootstrapped}) and when the prefetch's final ack reaches every stage ({@code
 * AckArrives}), each as the number of steps each stage had run then ({@code step[s]}). The spec's step k of a
 * stage ({@code Stage0Step}, {@code Stage1Step}, from 1) is the implementation's step k of that stage; its step
 * 0 is the request's RECV, its storage query (S7) and its hit drain, which start the read whose ack the spec
 * abstracts to one event.
 */
final class HiCacheUnifiedPPSchedule {

  /** The actions whose choices this schedule maps (the stages' steps are the implementation's own). */
  static final Set<String> DRIVEN = Set.of(TraceState.INITIAL, "Bootstrapped", "AckArrives", "Stage0Step",
      "Stage1Step", "Finished");

  /** Stage 0's step count when {@code Bootstrapped} happened, or -1 when the trace has none. */
  private int bootAfter = -1;
  /** Each stage's step count when {@code AckArrives} happened, or null when the trace has none. */
  private int[] ackAfter;
  /** Each stage's step count at the trace's last state. */
  private final int[] steps = new int[2];
  /** Each stage's {@code admitted} at the trace's last state (0: not admitted). */
  private final int[] admitted = new int[2];
  private final Set<String> undriven = new LinkedHashSet<>();

  private HiCacheUnifiedPPSchedule(ErrorTrace trace) {
    for (TraceState now : trace.states()) {
      if (!DRIVEN.contains(now.action())) {
        undriven.add(now.action());
      }
      int[] at = {(int) number(rank(now, "step", 0)), (int) number(rank(now, "step", 1))};
      if (now.action().equals("Bootstrapped")) {
        bootAfter = at[0];
      }
      if (now.action().equals("AckArrives")) {
        ackAfter = at;
      }
      for (int s = 0; s < 2; s++) {
        steps[s] = at[s];
        admitted[s] = (int) number(rank(now, "admitted", s));
      }
    }
  }

  /** Reads {@code trace}, a counterexample of a HiCacheUnifiedPP model. */
  static HiCacheUnifiedPPSchedule of(ErrorTrace trace) {
    return new HiCacheUnifiedPPSchedule(trace);
  }

  /** The first step after the trace's last: the environment completes there what the trace left pending. */
  int afterTrace() {
    return Math.max(steps[0], steps[1]) + 1;
  }

  /** The step from which stage 0's bootstrap poll finds the request bootstrapped (its ring moves it then). */
  int bootstrappedFrom() {
    return bootAfter >= 0 ? bootAfter + 1 : afterTrace() + 1;
  }

  /**
   * The step of stage {@code stage} before whose event check the final ack is in its queue: the step after
   * the ones it had run when the ack arrived.
   */
  int ackBefore(int stage) {
    return ackAfter != null ? ackAfter[stage] + 1 : afterTrace() + 1;
  }

  /**
   * Whether stage {@code stage}'s storage threads queue the final ack at the start of step {@link #ackBefore},
   * before its RECV: stage 0 when the ack came while it was a step ahead of stage 1 (stage 1 joins the completion
   * sync in its step before, right before its event check); else right before the step's event check, after
   * RECV (a stage waiting in the completion sync before RECV would hold up the domain's RECV).
   */
  boolean ackAtStepStart(int stage) {
    return stage == 0 && ackAfter != null && ackAfter[0] > ackAfter[1];
  }

  /**
   * The step at which the spec's {@code TreeAgreement} fails in the trace's last state: the first k both stages
   * have run whose admissions differ ({@code AdmittedBy}), or the later stage's step count when none does.
   */
  int lastStep() {
    for (int k = 1; k <= Math.min(steps[0], steps[1]); k++) {
      if (admittedBy(0, k) != admittedBy(1, k)) {
        return k;
      }
    }
    return steps[1];
  }

  private boolean admittedBy(int stage, int k) {
    return admitted[stage] != 0 && admitted[stage] <= k;
  }

  /** Why the implementation cannot follow this trace: empty when it can. */
  List<String> unmapped() {
    List<String> why = new ArrayList<>();
    undriven.forEach(a -> why.add("action " + a + " has no seam in the PD prefill replay"));
    if (ackAfter != null && ackAfter[0] - ackAfter[1] > 1) {
      why.add("the final ack arrives with stage 0 " + (ackAfter[0] - ackAfter[1]) + " steps ahead of stage 1: the"
          + " implementation's RECV is one collective over the sync domain, so no stage runs more than one step"
          + " ahead of another");
    }
    return why;
  }

  /** What the replay makes the environment do, in the implementation's steps. */
  List<String> describe() {
    List<String> out = new ArrayList<>();
    out.add("schedule: step 0 receives the request, queries storage (S7 over the pp group) and drains its hit on"
        + " both stages (the read starts)");
    out.add("schedule: stage 0's bootstrap poll finds the request bootstrapped from step " + bootstrappedFrom()
        + (bootAfter >= 0 ? "" : " (after the trace)"));
    out.add("schedule: the final ack (the completion sync's S5 over the pp group) is queued on stage 0 "
        + (ackAtStepStart(0) ? "at the start of" : "right before the event check of") + " its step " + ackBefore(0)
        + ", on stage 1 right before its step " + ackBefore(1) + "'s event check"
        + (ackAfter != null ? "" : " (after the trace)"));
    return out;
  }
}
