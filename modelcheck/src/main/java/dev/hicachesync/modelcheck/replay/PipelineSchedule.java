package dev.hicachesync.modelcheck.replay;

import static dev.hicachesync.modelcheck.replay.TraceReads.elements;
import static dev.hicachesync.modelcheck.replay.TraceReads.field;
import static dev.hicachesync.modelcheck.replay.TraceReads.length;
import static dev.hicachesync.modelcheck.replay.TraceReads.number;
import static dev.hicachesync.modelcheck.replay.TraceReads.rank;
import static dev.hicachesync.modelcheck.replay.TraceReads.tailAppended;

import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a {@code HiCachePipeline.tla} counterexample schedules and logs, per rank: every rank-local choice the
 * replay makes the implementation take ({@link PipelineEnvironment}), and the per-step log records the spec's
 * invariants compare.
 *
 * <p>Steps are each rank's own: the spec's stages are not in scheduler lockstep ({@code ls[r].step}, from 1), so
 * a rank's choice is keyed by the step of that rank it happens in; the implementation's spec-shaped PP run
 * numbers its steps from 0 ({@code spec step - 1}) and meets at every RECV, which is where the logs are
 * compared: the spec's log record of step k (written at the step's end) is what a rank shows at the
 * implementation's RECV of its step k.
 *
 * <ul>
 *   <li>GPU copies ({@code WriteEventCompletes}, {@code LoadEventCompletes}): rank r's n-th write (n-th load) was
 *       issued in the step its {@code wq} ({@code lq}) grew, and is seen done from the step whose event check
 *       first reads it: the step it completes in when the rank still waits for it there (a later stage blocked on
 *       its own events, {@code wait_ev}; a load before the rank's S2 of {@code post20460}), else the next one;
 *   <li>the rank's LRU clock ({@code ClockSkews}, knob local_clock): skewed from the rank's next step on;
 *   <li>the prefetch thread's storage query ({@code PrefetchThreadQueries}): the leading pages h its stage's
 *       storage holds for the rank's n-th query, the local value it posts (or decides alone) at S7;
 *   <li>a storage read in flight ({@code IoStartsBatch}): the implementation's read of the pages S7 agreed on is in
 *       flight from the decision on, and lands after the trace's last step (a trace whose batch ends, {@code
 *       IoEndsBatch}, is not driven);
 *   <li>the timeout policy's clock ({@code TimeoutFires}): request i's prefetch has timed out on the rank from its
 *       next step on.
 * </ul>
 */
final class PipelineSchedule {

  /** Actions whose choices this schedule maps; the scheduler's steps and the collectives need no seam. */
  static final Set<String> DRIVEN = Set.of(TraceState.INITIAL, "StepBegins", "EventsReady", "SomeCollectiveCompletes",
      "CollectiveCompletes", "WriteEventCompletes", "LoadEventCompletes", "ClockSkews", "Terminated",
      "PrefetchThreadQueries", "IoStartsBatch", "TimeoutFires");

  /** One copy: the rank's step (the spec's, from 1) it was issued in and the first that sees it done (-1: none). */
  record Copy(int issued, int seenDone) {}

  private final int ranks;
  private final List<List<Copy>> writes = new ArrayList<>();
  private final List<List<Copy>> loads = new ArrayList<>();
  private final int[] skewedFrom;
  private final List<List<Integer>> hits = new ArrayList<>();
  private final List<Set<Integer>> passAtBoundary = new ArrayList<>();
  private final List<Set<Integer>> passAfterRecv = new ArrayList<>();
  private final List<java.util.Map<Integer, Integer>> timedOutFrom = new ArrayList<>();
  private final List<List<Integer>> heldPastHit = new ArrayList<>();
  private final List<List<TlaValue>> logs = new ArrayList<>();
  private final Set<String> undriven = new LinkedHashSet<>();
  private final int lastStep;

  private PipelineSchedule(ErrorTrace trace, int ranks, boolean separateLoadCheck, int pages) {
    this.ranks = ranks;
    this.skewedFrom = new int[ranks];
    java.util.Arrays.fill(skewedFrom, Integer.MAX_VALUE);
    List<List<Integer>> writesIssued = new ArrayList<>();
    List<List<Integer>> loadsIssued = new ArrayList<>();
    List<List<Integer>> writesSeen = new ArrayList<>();
    List<List<Integer>> loadsSeen = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      hits.add(new ArrayList<>());
      passAtBoundary.add(new java.util.HashSet<>());
      passAfterRecv.add(new java.util.HashSet<>());
      timedOutFrom.add(new java.util.HashMap<>());
      heldPastHit.add(new ArrayList<>());
      writesIssued.add(new ArrayList<>());
      loadsIssued.add(new ArrayList<>());
      writesSeen.add(new ArrayList<>());
      loadsSeen.add(new ArrayList<>());
    }
    TraceState before = null;
    for (TraceState now : trace.states()) {
      if (!DRIVEN.contains(now.action())) {
        undriven.add(now.action());
      }
      if (before != null) {
        for (int r = 0; r < ranks; r++) {
          TlaValue was = rank(before, "ls", r);
          TlaValue is = rank(now, "ls", r);
          int step = (int) number(field(is, "step"));
          for (int n = tailAppended(field(was, "wq"), field(is, "wq")).size(); n > 0; n--) {
            writesIssued.get(r).add(step);
          }
          for (int n = tailAppended(field(was, "lq"), field(is, "lq")).size(); n > 0; n--) {
            loadsIssued.get(r).add(step);
          }
          String pc = field(was, "pc") instanceof TlaValue.Str p ? p.value() : "";
          int wasStep = (int) number(field(was, "step"));
          boolean waits = pc.equals("wait_ev");
          if (now.action().equals("WriteEventCompletes") && number(field(is, "wd")) > number(field(was, "wd"))) {
            writesSeen.get(r).add(waits ? wasStep : wasStep + 1);
          }
          if (now.action().equals("LoadEventCompletes") && number(field(is, "ld")) > number(field(was, "ld"))) {
            // post20460 checks loads at S2, after S1's collective: a load done while S1 is posted is seen in the step
            boolean beforeS2 = separateLoadCheck && pc.equals("run") && postedSite(before, r).equals("S1");
            loadsSeen.get(r).add(waits || beforeS2 ? wasStep : wasStep + 1);
          }
          if (now.action().equals("PrefetchThreadQueries") && s7Hit(before, now, r) >= 0) {
            hits.get(r).add(s7Hit(before, now, r));
            // between steps k and k + 1: the pass at the boundary, or after RECV when the scheduler waits in
            // step k + 1's RECV; mid-step (after RECV): at the next boundary, the implementation's next pass
            boolean inRecv = pc.equals("begin") && postedSite(before, r).equals("RECV");
            (inRecv ? passAfterRecv : passAtBoundary).get(r).add(wasStep + 1);
          }
          for (int n = length(field(was, "log")); n < length(field(is, "log")); n++) {
            heldPastHit.get(r).add(heldPastHit(is, pages));
          }
          if (now.action().equals("TimeoutFires")) {
            List<TlaValue> ops = elements(field(was, "pf"));
            List<TlaValue> opsNow = elements(field(is, "pf"));
            for (int i = 0; i < Math.min(ops.size(), opsNow.size()); i++) {
              if (!(field(ops.get(i), "to") instanceof TlaValue.Bool t && t.value())
                  && field(opsNow.get(i), "to") instanceof TlaValue.Bool t2 && t2.value()) {
                timedOutFrom.get(r).putIfAbsent(i + 1, wasStep + 1);
              }
            }
          }
          if (!(field(was, "clk") instanceof TlaValue.Bool c && c.value())
              && field(is, "clk") instanceof TlaValue.Bool c2 && c2.value()) {
            skewedFrom[r] = Math.min(skewedFrom[r], wasStep + 1);
          }
        }
      }
      before = now;
    }
    int last = 0;
    for (int r = 0; r < ranks; r++) {
      TlaValue ls = before == null ? null : rank(before, "ls", r);
      logs.add(elements(field(ls, "log")));
      last = Math.max(last, (int) number(field(ls, "step")));
      writes.add(copies(writesIssued.get(r), writesSeen.get(r)));
      loads.add(copies(loadsIssued.get(r), loadsSeen.get(r)));
    }
    this.lastStep = last;
  }

  /** Reads {@code trace}, a counterexample of a HiCachePipeline model with {@code ranks} ranks. */
  static PipelineSchedule of(ErrorTrace trace, int ranks, boolean separateLoadCheck, int pages) {
    return new PipelineSchedule(trace, ranks, separateLoadCheck, pages);
  }

  /**
   * The host slots past the S7 hit that rank state {@code ls} still holds (of keys of {@code pages} pages): the
   * spec keeps a prefetch's slots past its hit ({@code own - tgt}) until the prefetch is terminated and its tail
   * popped from the release queue, where the implementation (as SGLang's {@code prefetch_thread_func}, and
   * {@code HiCacheSync.tla}) queues them for release at S7 and frees them at the next S3. Counted per prefetch
   * whose S7 is decided, while it owns slots or its terminated tail waits in the release queue.
   */
  private static int heldPastHit(TlaValue ls, int pages) {
    int held = 0;
    boolean releasesQueued = length(field(ls, "rlq")) > 0;
    for (TlaValue op : elements(field(ls, "pf"))) {
      boolean decided = field(op, "hitd") instanceof TlaValue.Bool d && d.value();
      if (decided && (number(field(op, "own")) > 0 || number(field(op, "tstep")) > 0 && releasesQueued)) {
        held += pages - (int) number(field(op, "tgt"));
      }
    }
    return held;
  }

  private static List<Copy> copies(List<Integer> issued, List<Integer> seen) {
    List<Copy> out = new ArrayList<>();
    for (int i = 0; i < issued.size(); i++) {
      out.add(new Copy(issued.get(i), i < seen.size() ? seen.get(i) : -1));
    }
    return out;
  }

  /**
   * The local value h rank r's prefetch thread took in the step {@code before} to {@code now}: its posted S7
   * call's value, or, with no group to post on, the hit of the operation it decided alone; -1 when r did not query.
   */
  private static int s7Hit(TraceState before, TraceState now, int r) {
    TlaValue.Rec call = TraceReads.posted(now, r, "pf");
    if (call != null && TraceReads.posted(before, r, "pf") == null) {
      return (int) number(elements(call.fields().get("val")).get(0));
    }
    List<TlaValue> was = elements(field(rank(before, "ls", r), "pf"));
    List<TlaValue> is = elements(field(rank(now, "ls", r), "pf"));
    for (int i = 0; i < Math.min(was.size(), is.size()); i++) {
      if (!(field(was.get(i), "hitd") instanceof TlaValue.Bool b && b.value())
          && field(is.get(i), "hitd") instanceof TlaValue.Bool d && d.value()) {
        return (int) number(field(is.get(i), "hit"));
      }
    }
    return -1;
  }

  private static String postedSite(TraceState s, int r) {
    TlaValue call = field(rank(s, "coll", r), "sched");
    return field(call, "site") instanceof TlaValue.Str site ? site.value() : "";
  }

  int ranks() {
    return ranks;
  }

  List<Copy> writes(int rank) {
    return writes.get(rank);
  }

  List<Copy> loads(int rank) {
    return loads.get(rank);
  }

  /** The leading pages each S7 query of rank {@code rank}'s prefetch thread finds, in order. */
  List<Integer> hits(int rank) {
    return hits.get(rank);
  }

  /**
   * Whether rank {@code rank}'s prefetch thread takes its pass at the start of its step {@code step} (from 1):
   * the spec's thread queries between the rank's steps {@code step - 1} and {@code step} (or mid-step {@code step
   * - 1}), and not in the middle of a step; beyond the trace the pass always runs.
   */
  boolean passRuns(int rank, long step) {
    return step > lastStep || passAtBoundary.get(rank).contains((int) step);
  }

  /** Whether rank {@code rank}'s prefetch thread passes in its step {@code step} after RECV, before the event check. */
  boolean passAfterRecv(int rank, long step) {
    return step <= lastStep && passAfterRecv.get(rank).contains((int) step);
  }

  /** Rank {@code rank}'s timed-out prefetches: request (from 1) to the step (from 1) it has timed out from. */
  java.util.Map<Integer, Integer> timeouts(int rank) {
    return new java.util.TreeMap<>(timedOutFrom.get(rank));
  }

  /**
   * Whether request {@code request}'s (from 1) prefetch has timed out on rank {@code rank} in its step {@code
   * step} (from 1): from the step after the spec's {@code TimeoutFires} for it.
   */
  boolean timedOut(int rank, int request, long step) {
    Integer from = timedOutFrom.get(rank).get(request);
    return from != null && step >= from;
  }

  /**
   * The host slots past an S7 hit that rank {@code rank}'s spec state still held when it logged step {@code step}
   * (from 1), which the implementation has freed by then ({@link #heldPastHit}).
   */
  int heldPastHit(int rank, int step) {
    List<Integer> held = heldPastHit.get(rank);
    return step - 1 < held.size() ? held.get(step - 1) : 0;
  }

  /** Whether rank {@code rank}'s clock orders LRU victims the other way in its step {@code step} (from 1). */
  boolean clockSkewed(int rank, long step) {
    return step >= skewedFrom[rank];
  }

  /** The step (from 1) from which rank {@code rank}'s clock is skewed, or -1 when never. */
  int skewedFrom(int rank) {
    return skewedFrom[rank] == Integer.MAX_VALUE ? -1 : skewedFrom[rank];
  }

  /** Rank {@code rank}'s log at the trace's end: one record per step from 1. */
  List<TlaValue> log(int rank) {
    return logs.get(rank);
  }

  /** The highest step (from 1) any rank of the trace has begun. */
  int lastStep() {
    return lastStep;
  }

  /** Actions of the trace this replay has no seam for, in order. */
  Set<String> undriven() {
    return undriven;
  }
}
