package dev.hicachesync.modelcheck.replay;

import static dev.hicachesync.modelcheck.replay.TraceReads.field;
import static dev.hicachesync.modelcheck.replay.TraceReads.rank;

import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimulationRun;
import dev.hicachesync.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The replay's judgement of a liveness lasso whose cycle the spec's scheduler runs by itself ({@code
 * AttachEventuallySucceeds}: a retried attach that never succeeds; {@code RequestsProgress}: a request waiting for
 * ever for a prefetch that no living thread will finish). A finite run cannot show "never" by waiting; it can show
 * that it repeats. The implementation is run through the stem and the cycle as the counterexample schedules them,
 * then on: its state at the RECV of each step from the cycle's first RECV on is compared with its state one cycle
 * ({@code L} steps, the RECVs the cycle completes) later, over three cycles, the last two past the trace. The state
 * is what the replay compares at RECV (each rank's lockstep point, tree digest, ack queue lengths, ongoing
 * prefetches, free device and host pages, pending I/O, first waiting and running request) and the runtime
 * attach's ({@link SimulationRun.AttachState}: {@code enable_storage}, half attached, an attach pending).
 *
 * <p>Reproduced when: the cycle takes no environment choice (only the scheduler's steps and the collectives'
 * completions: the environment's and the storage threads' actions would be choices the repetition must
 * repeat); the implementation breaks no invariant on the way; its state repeats with the cycle's period, so the
 * deterministic run, answered the same by the schedule (nothing, past the trace), repeats for ever; the state
 * is one in which the property never holds ({@link #NEVER}); and each rank's attach state where the repetition
 * starts is the spec's at the matching RECV of the cycle ({@code storage[r]}, {@code env[r].half}).
 *
 * <p>Where the repetition starts: the step the cycle's first RECV maps to is the count of the stem's RECVs, and a
 * request the stem admitted can still be running at that step's RECV in the implementation (a spec-shaped
 * request finishes at a later RECV than the spec's). So the repetition may start up to {@link #MAX_SHIFT} steps
 * later; the report names the step. A state that does not repeat from any of those steps is not judged (not
 * replayable: a finite run that does not repeat decides neither side); another attach state is a disagreement:
 * the implementation departs from the spec's cycle on the spec's own schedule; a run that repeats with the
 * property's goal reached means the spec's lasso is one the implementation does not have.
 */
final class LassoJudgement {

  /** A rank where the repetition starts: its attach state and its requests. */
  record AtRecv(SimulationRun.AttachState attach, SimulationRun.Replica replica) {}

  /** Each liveness property this judgement decides: what "it never holds" is on the implementation's ranks. */
  static final Map<String, Predicate<List<AtRecv>>> NEVER = Map.of(
      "AttachEventuallySucceeds", ranks -> ranks.stream().allMatch(r -> r.attach().pending()
          && !r.attach().storageEnabled()),
      // HiCacheUnified.tla's RequestsProgress: every request arrives and none is left waiting.
      "RequestsProgress", ranks -> ranks.stream().anyMatch(r -> r.replica().waiting() != null));

  /** Cycles compared: the first within the trace, the others past it. */
  private static final int CYCLES = 3;

  /** Steps after the cycle's first RECV's step the implementation's repetition may start (see the class comment). */
  static final int MAX_SHIFT = 2;

  private LassoJudgement() {}

  /** Whether {@code verdict}, on a trace that ends as {@code trace} does, is one this judgement decides. */
  static boolean applies(Verdict verdict, ErrorTrace trace) {
    return verdict.kind() == Verdict.Kind.VIOLATES && NEVER.containsKey(verdict.property())
        && trace.ending() == ErrorTrace.Ending.LOOP;
  }

  /**
   * The lasso's cycle: the implementation's step whose RECV is the cycle's first ({@code firstRecv}), the RECVs
   * the cycle completes ({@code steps}), its environment choices (actions that are neither a scheduler step nor
   * a collective's completion), and the spec's state at the cycle's first lockstep RECV (null if none).
   */
  record Cycle(int firstRecv, int steps, List<String> choices, List<TraceState> atRecvs, String span) {

    /** The spec's lockstep state before the cycle's first RecvComplete (null if none). */
    TraceState atFirstRecv() {
      return atRecvs.isEmpty() ? null : atRecvs.get(0);
    }
  }

  /** Reads the cycle of {@code trace}, a lasso of a {@code HiCacheUnified.tla} model. */
  static Cycle cycle(ErrorTrace trace) {
    List<TraceState> states = trace.states();
    int from = trace.loopTarget() - 1; // index of the state the behaviour returns to
    int recvsBefore = 0;
    for (int i = 1; i <= from; i++) {
      recvsBefore += states.get(i).action().equals("RecvComplete") ? 1 : 0;
    }
    List<String> actions = new ArrayList<>();
    List<TraceState> atRecvs = new ArrayList<>();
    for (int i = from + 1; i < states.size(); i++) {
      actions.add(states.get(i).action());
      if (states.get(i).action().equals("RecvComplete")) {
        atRecvs.add(states.get(i - 1));
      }
    }
    actions.add(trace.loopAction());
    if (trace.loopAction().equals("RecvComplete")) {
      atRecvs.add(states.get(states.size() - 1));
    }
    int steps = (int) actions.stream().filter("RecvComplete"::equals).count();
    List<String> choices = actions.stream().filter(a -> !a.startsWith("Sched") && !a.endsWith("Complete"))
        .distinct().toList();
    return new Cycle(recvsBefore, steps, choices, atRecvs, "states " + trace.loopTarget() + "-" + states.size()
        + ", back to " + trace.loopTarget() + " by " + (trace.loopAction().isEmpty() ? "?" : trace.loopAction()));
  }

  /**
   * The outcome of bug model {@code model}'s replay of {@code trace} (verdict {@code verdict}) on the
   * implementation configured by {@code cfg}, with {@code ranks} ranks.
   */
  static ReplayReport judge(String model, String schedule, String specSide, List<String> lines, Verdict verdict,
      ErrorTrace trace, SimConfig cfg, int ranks) {
    Cycle c = cycle(trace);
    lines.add("lasso: the spec's cycle (" + c.span() + ") completes " + c.steps() + " RECV(s), the first of step "
        + c.firstRecv() + (c.choices().isEmpty() ? ", and takes no environment choice" : ", with the environment"
            + " choices " + c.choices()));
    if (c.steps() == 0 || !c.choices().isEmpty() || c.atFirstRecv() == null) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.NOT_REPLAYABLE, specSide, "not run", lines,
          "the counterexample breaks " + verdict.property() + ", a liveness lasso whose cycle "
              + (c.steps() == 0 ? "completes no RECV" : "takes the environment choices " + c.choices())
              + ": a finite run shows a cycle only by repeating a state at RECV with nothing the schedule decides");
    }
    int last = c.firstRecv() + MAX_SHIFT + CYCLES * c.steps();
    Map<Integer, List<String>> seen = new TreeMap<>();
    Map<Integer, List<AtRecv>> ranksAt = new TreeMap<>();
    SimulationRun.Verdict v;
    try (SimulationRun run = Simulator.open(cfg)) {
      v = run.verdict();
      for (int points = 0; points < 10_000 && v.ok() && !v.ended() && !seen.containsKey(last); points++) {
        int step = JavaReplay.atRecv(run);
        if (step >= c.firstRecv() && step <= last && !seen.containsKey(step)) {
          seen.put(step, state(run, ranks));
          List<AtRecv> at = new ArrayList<>();
          for (int r = 0; r < ranks; r++) {
            at.add(new AtRecv(run.attachState(r), run.replica(r)));
          }
          ranksAt.put(step, at);
        }
        v = run.advance();
      }
    }
    String implSide = v.divergence() != null ? JavaReplay.describe(v.divergence())
        : v.crash() != null ? "crashed: " + v.crash() : seen.containsKey(last) ? "no violation, RECV states of steps "
            + c.firstRecv() + "-" + last + " compared" : "no violation, ended after " + seen.size() + " compared RECV(s)";
    if (!seen.containsKey(last)) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines,
          JavaReplay.IMPL_WRONG + "the spec's cycle repeats with no invariant broken, the implementation "
              + (v.divergence() != null ? "breaks " + v.divergence().invariant() + " at step " + v.divergence().step()
                  : v.crash() != null ? "crashed: " + v.crash() : "ended before step " + last + "'s RECV"));
    }
    int start = repetitionStart(seen, c);
    if (start < 0) {
      int s = c.firstRecv();
      lines.add("step " + s + " RECV: " + seen.get(s));
      lines.add("step " + (s + c.steps()) + " RECV: " + seen.get(s + c.steps()));
      return new ReplayReport(model, schedule, ReplayReport.Outcome.NOT_REPLAYABLE, specSide, implSide, lines,
          "the counterexample breaks " + verdict.property() + ", a liveness lasso; the implementation's state at"
              + " step s's RECV differs from step s + " + c.steps() + "'s for every s from step " + c.firstRecv()
              + " (where the judgement maps the cycle's first RECV) to step " + (c.firstRecv() + MAX_SHIFT)
              + ", so it does not repeat with the spec's cycle, and a finite run that does not repeat decides"
              + " neither side");
    }
    lines.add("implementation: at every RECV of steps " + start + "-" + last + " the state of step s + "
        + c.steps() + " equals step s's" + (start == c.firstRecv() ? "" : " (from " + (start - c.firstRecv())
            + " step(s) after the cycle's first RECV, step " + c.firstRecv() + ")") + ": " + seen.get(start));
    List<AtRecv> atStart = ranksAt.get(start);
    TraceState spec = c.atRecvs().get((start - c.firstRecv()) % c.atRecvs().size());
    for (int r = 0; r < ranks; r++) {
      boolean half = field(rank(spec, "env", r), "half") instanceof TlaValue.Bool h && h.value();
      boolean storage = rank(spec, "storage", r) instanceof TlaValue.Bool on && on.value();
      SimulationRun.AttachState impl = atStart.get(r).attach();
      if (impl.halfAttached() != half || impl.storageEnabled() != storage) {
        return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines,
            JavaReplay.IMPL_WRONG + "at step " + start + "'s RECV rank " + r + " is " + impl
                + " in the implementation, half " + half + " and storage " + storage + " in the spec");
      }
    }
    if (!NEVER.get(verdict.property()).test(atStart)) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines,
          JavaReplay.SPEC_WRONG + "the implementation repeats the spec's cycle with " + verdict.property()
              + " holding (" + atStart + ")");
    }
    return new ReplayReport(model, schedule, ReplayReport.Outcome.SAME_VIOLATION, specSide, implSide, lines, "");
  }

  /**
   * The first step from the cycle's first RECV's on (at most {@link #MAX_SHIFT} later) from which every compared
   * RECV state equals the one a cycle later, through the last compared step; -1 if none.
   */
  static int repetitionStart(Map<Integer, List<String>> seen, Cycle c) {
    int last = c.firstRecv() + MAX_SHIFT + CYCLES * c.steps();
    for (int start = c.firstRecv(); start <= c.firstRecv() + MAX_SHIFT; start++) {
      boolean repeats = true;
      for (int s = start; s + c.steps() <= last && repeats; s++) {
        repeats = seen.get(s).equals(seen.get(s + c.steps()));
      }
      if (repeats) {
        return start;
      }
    }
    return -1;
  }

  /** What rank by rank the judgement compares where every rank is parked at RECV. */
  private static List<String> state(SimulationRun run, int ranks) {
    List<String> out = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      SimulationRun.RankView v = run.view(r);
      SimulationRun.Replica q = run.replica(r);
      out.add("rank " + r + " " + v.point() + " tree " + v.treeDigest() + " queues " + v.queues() + " prefetches "
          + v.ongoingPrefetches() + " free " + v.freeDevicePages() + "/" + v.freeHostPages() + " io " + v.pendingIo()
          + " waiting " + q.waiting() + " running " + q.running() + " " + run.attachState(r));
    }
    return out;
  }
}
