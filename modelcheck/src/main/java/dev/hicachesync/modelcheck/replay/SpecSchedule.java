package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import dev.hicachesync.report.swimlane.CompletedCall;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a {@code HiCacheSync.tla} error trace schedules and observes, step by step.
 *
 * <p>A state's step is the number of RECV collectives completed up to it, minus one (everything a rank does
 * after step k's RECV belongs to step k). The schedule: for each rank, the step in which its n-th write
 * (device→host) and n-th load (host→device) copy was issued ({@code wq}/{@code lq} grew) and the step from
 * which its completion is visible ({@code wDone}/{@code lDone} grew: the spec completes events only while the
 * whole domain is posted, so the event is seen by the next step's checks). The observations: each rank's
 * {@code devFree}, {@code hostFree}, {@code Len(wq)}, {@code Len(lq)} right before every RECV completes, the
 * values a rank of the implementation shows when it is parked at that RECV.
 */
public final class SpecSchedule {

  /** The spec's variables a rank shows at RECV, as the implementation's {@code RankView} shows them. */
  public record Observed(long devFree, long hostFree, long writeAcks, long loadAcks) {
    @Override
    public String toString() {
      return "devFree=" + devFree + " hostFree=" + hostFree + " Len(wq)=" + writeAcks + " Len(lq)=" + loadAcks;
    }
  }

  /** One copy: the step it was issued in and the first step that sees it done (-1: not done in the trace). */
  public record Copy(int issued, int seenDone) {}

  /** Actions this replay drives: collectives (the lockstep) and GPU copies completing. */
  static final Set<String> DRIVEN = Set.of(TraceState.INITIAL, "SchedRecvRequests", "SchedWritingCheck",
      "SchedLoadingCheck", "SchedDrainStorageControlQueues", "SchedCheckHicacheEvents", "SchedCanTerminatePrefetch",
      "SchedCheckPrefetchProgress", "SchedReleaseAbortedRequest", "WriteEventCompletes", "LoadEventCompletes",
      "Terminated");

  private final int ranks;
  private final List<List<Copy>> writes = new ArrayList<>();
  private final List<List<Copy>> loads = new ArrayList<>();
  private final List<List<Observed>> observed = new ArrayList<>();
  private final Set<String> undriven = new LinkedHashSet<>();
  private final int lastStep;

  private SpecSchedule(ErrorTrace trace, int ranks) {
    this.ranks = ranks;
    for (int r = 0; r < ranks; r++) {
      writes.add(new ArrayList<>());
      loads.add(new ArrayList<>());
    }
    List<TraceState> states = trace.states();
    int step = -1;
    for (int i = 0; i < states.size(); i++) {
      TraceState now = states.get(i);
      if (!DRIVEN.contains(now.action())) {
        undriven.add(now.action());
      }
      if (i == 0) {
        continue;
      }
      TraceState before = states.get(i - 1);
      if (CompletedCall.between(before, now).filter(c -> c.site().equals("RECV")).isPresent()) {
        List<Observed> atRecv = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
          atRecv.add(observed(before, r));
        }
        observed.add(atRecv);
        step++;
      }
      for (int r = 0; r < ranks; r++) {
        track(writes.get(r), before, now, "wq", "wDone", r, step);
        track(loads.get(r), before, now, "lq", "lDone", r, step);
      }
    }
    this.lastStep = step;
  }

  /** Reads {@code trace}, a counterexample of a model with {@code ranks} ranks in one sync domain. */
  public static SpecSchedule of(ErrorTrace trace, int ranks) {
    return new SpecSchedule(trace, ranks);
  }

  /** Rank {@code rank}'s write copies in issue order. */
  public List<Copy> writes(int rank) {
    return writes.get(rank);
  }

  /** Rank {@code rank}'s load copies in issue order. */
  public List<Copy> loads(int rank) {
    return loads.get(rank);
  }

  /** What every rank shows before step {@code step}'s RECV completes; step 0 first. */
  public List<List<Observed>> observed() {
    return observed;
  }

  /** The step of the trace's last state (where the verdict is). */
  public int lastStep() {
    return lastStep;
  }

  /** Actions of the trace that the replay cannot drive (no seam in the implementation), in order. */
  public Set<String> undriven() {
    return undriven;
  }

  /** The number of ranks. */
  public int ranks() {
    return ranks;
  }

  private static void track(List<Copy> copies, TraceState before, TraceState now, String queue, String done, int r,
      int step) {
    for (int k = tailAppended(rank(before, queue, r), rank(now, queue, r)).size(); k > 0; k--) {
      copies.add(new Copy(step, -1));
    }
    // The done counter also drops when a sync point pops; it only rises when the rank's event completes.
    long completed = Math.max(0, number(rank(now, done, r)) - number(rank(before, done, r)));
    for (int k = 0; k < completed; k++) {
      for (int n = 0; n < copies.size(); n++) {
        if (copies.get(n).seenDone() < 0) {
          copies.set(n, new Copy(copies.get(n).issued(), step + 1));
          break;
        }
      }
    }
  }

  /** The entries at the tail of {@code now} that {@code before} (after dropping some head) does not end with. */
  private static List<TlaValue> tailAppended(TlaValue before, TlaValue now) {
    if (!(before instanceof TlaValue.Tuple b) || !(now instanceof TlaValue.Tuple n)) {
      return List.of();
    }
    for (int drop = 0; drop <= b.elements().size(); drop++) {
      List<TlaValue> rest = b.elements().subList(drop, b.elements().size());
      if (n.elements().size() >= rest.size() && n.elements().subList(0, rest.size()).equals(rest)) {
        return n.elements().subList(rest.size(), n.elements().size());
      }
    }
    return n.elements();
  }

  private static Observed observed(TraceState s, int r) {
    return new Observed(number(rank(s, "devFree", r)), number(rank(s, "hostFree", r)), length(rank(s, "wq", r)),
        length(rank(s, "lq", r)));
  }

  private static TlaValue rank(TraceState s, String variable, int r) {
    TlaValue v = s.variables().get(variable);
    if (v instanceof TlaValue.Fn f) {
      return f.mapping().get(new TlaValue.Int(r));
    }
    if (v instanceof TlaValue.Tuple t && r < t.elements().size()) {
      return t.elements().get(r);
    }
    return null;
  }

  private static int length(TlaValue v) {
    return v instanceof TlaValue.Tuple t ? t.elements().size() : 0;
  }

  private static long number(TlaValue v) {
    return v instanceof TlaValue.Int i ? i.value() : 0;
  }
}
