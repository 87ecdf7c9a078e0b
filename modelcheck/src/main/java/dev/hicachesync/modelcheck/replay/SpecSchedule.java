package dev.hicachesync.modelcheck.replay;

import static dev.hicachesync.modelcheck.replay.TraceReads.elements;
import static dev.hicachesync.modelcheck.replay.TraceReads.field;
import static dev.hicachesync.modelcheck.replay.TraceReads.length;
import static dev.hicachesync.modelcheck.replay.TraceReads.number;
import static dev.hicachesync.modelcheck.replay.TraceReads.posted;
import static dev.hicachesync.modelcheck.replay.TraceReads.queuedS7;
import static dev.hicachesync.modelcheck.replay.TraceReads.rank;
import static dev.hicachesync.modelcheck.replay.TraceReads.tailAppended;

import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import dev.hicachesync.report.swimlane.CompletedCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a {@code HiCacheSync.tla} error trace schedules and observes, step by step.
 *
 * <p>A state's step is the number of RECV collectives completed up to it, minus one (everything a rank does
 * after step k's RECV belongs to step k). The spec takes environment actions only while the whole domain
 * waits at RECV (EnvWindow), so an environment action taken in step k's states happens, for the
 * implementation, at the start of step k + 1: in its clock's tick (a copy or a read landing) or in its
 * prefetch thread's pass, both before RECV k + 1 completes.
 *
 * <p>The schedule, per rank, every rank-local choice of the counterexample:
 * <ul>
 *   <li>the step its n-th write (device→host) and n-th load (host→device) copy was issued ({@code wq}/{@code
 *       lq} grew) and the step from which its completion is visible ({@code wDone}/{@code lDone} grew);
 *   <li>its prefetch thread's queries (PfStorageHitQuery: the step it posts S7 and the leading pages h
 *       its storage holds, the S7 call's value) and the steps its thread stays idle with work queued;
 *   <li>its storage reads (StorageReadsPage: the step a page lands, or the read fails) and backups
 *       (StorageBackupCompletes: the step the backup is acked);
 *   <li>the batch-full condition of its admission (BatchFills: {@code lenv.bf}, early or late, per step);
 *   <li>the step from which its clock orders LRU timestamps the other way (ClockSkews: {@code lenv.clk});
 *   <li>the step from which its schedule policy orders the waiting queue newest first (OrderSkews: {@code
 *       lenv.ord});
 *   <li>the waiting request aborted at its next RECV (AbortArrives: {@code lenv.ab}, per rank under WTO), and the
 *       running one (AbortRunningArrives: {@code lenv.ab} naming the running request).
 * </ul>
 * The observations: what each rank shows right before every RECV completes ({@link Observed}), the values a
 * rank of the implementation shows when it is parked at that RECV.
 */
public final class SpecSchedule {

  /**
   * The spec's variables a rank shows at RECV, as the implementation shows them: the free pools, the write
   * and load ack queues, the waiting and running request, and per key of {@code Requests} its residency.
   */
  public record Observed(long devFree, long hostFree, long writeAcks, long loadAcks, long waiting, long running,
      List<String> keys) {
    /** The four counters of a trace's RECV snapshot, nothing else known (the trace parser's tests). */
    public Observed(long devFree, long hostFree, long writeAcks, long loadAcks) {
      this(devFree, hostFree, writeAcks, loadAcks, 0, 0, List.of());
    }

    @Override
    public String toString() {
      return "devFree=" + devFree + " hostFree=" + hostFree + " Len(wq)=" + writeAcks + " Len(lq)=" + loadAcks
          + " waiting=" + waiting + " running=" + running + (keys.isEmpty() ? "" : " tree=" + String.join(",", keys));
    }
  }

  /** One copy, read or backup: the step it was issued in and the first step that sees it done (-1: not done in the trace). */
  public record Copy(int issued, int seenDone) {}

  /** One storage read of a page: the step it lands (seen from that step's start) and whether it fails. */
  public record Read(int lands, boolean fails) {}

  /**
   * Actions this replay drives: the scheduler's collectives (the lockstep) and the prefetch thread's S7, GPU
   * copies, the prefetch thread's storage query, storage reads and backups, batch full, clocks and aborts. The
   * spec's former names of the same steps ({@code SomeCollectiveCompletes}, {@code PrefetchThreadQueries}) too:
   * counterexamples printed before the steps had one action each still replay.
   */
  static final Set<String> DRIVEN = driven();

  private static Set<String> driven() {
    Set<String> driven = new java.util.HashSet<>(CompletedCall.stepActions()); // the steps' collectives
    driven.addAll(Set.of(TraceState.INITIAL, "WriteEventCompletes", "LoadEventCompletes", "Terminated",
        "PfStorageHitQuery", "StorageReadsPage", "StorageReadsSidecarPage", "StorageBackupCompletes", "BatchFills", "ClockSkews", "AbortArrives",
        "OrderSkews", "AbortRunningArrives", "PrefetchThreadDies", "TimeoutFires",
        "SomeCollectiveCompletes", "PrefetchThreadQueries"));
    return Set.copyOf(driven);
  }

  private final int ranks;
  private final List<Integer> keys;
  private final List<List<Copy>> writes = new ArrayList<>();
  private final List<List<Copy>> loads = new ArrayList<>();
  private final List<List<Integer>> hits = new ArrayList<>();
  private final List<Map<Integer, Integer>> queries = new ArrayList<>();
  private final List<Map<Integer, Integer>> queued = new ArrayList<>();
  private final List<List<Read>> reads = new ArrayList<>();
  private final List<List<Integer>> backups = new ArrayList<>();
  private final List<Map<Integer, String>> batchFull = new ArrayList<>();
  private final int[] skewedFrom;
  private final int[] reorderedFrom;
  private final List<Map<Integer, Integer>> aborts = new ArrayList<>();
  private final List<Map<Integer, Integer>> runningAborts = new ArrayList<>();
  private final List<List<Observed>> observed = new ArrayList<>();
  private final Set<String> undriven = new LinkedHashSet<>();
  private final PrefetchThreadDeaths deaths;
  private final PrefetchTimeouts timeouts;
  private final SidecarReads sidecarReads;
  private final List<String> unmapped = new ArrayList<>();
  private final int lastStep;

  private SpecSchedule(ErrorTrace trace, int ranks, List<Integer> keys) {
    this.ranks = ranks;
    this.keys = List.copyOf(keys);
    this.skewedFrom = new int[ranks];
    java.util.Arrays.fill(skewedFrom, Integer.MAX_VALUE);
    this.reorderedFrom = new int[ranks];
    this.deaths = new PrefetchThreadDeaths(ranks);
    this.timeouts = new PrefetchTimeouts(ranks);
    this.sidecarReads = new SidecarReads(ranks);
    java.util.Arrays.fill(reorderedFrom, Integer.MAX_VALUE);
    for (int r = 0; r < ranks; r++) {
      writes.add(new ArrayList<>());
      loads.add(new ArrayList<>());
      hits.add(new ArrayList<>());
      queries.add(new HashMap<>());
      queued.add(new HashMap<>());
      reads.add(new ArrayList<>());
      backups.add(new ArrayList<>());
      batchFull.add(new HashMap<>());
      aborts.add(new HashMap<>());
      runningAborts.add(new HashMap<>());
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
        trackEnvironment(before, now, r, step);
        deaths.track(before, now, r, step);
        timeouts.track(before, now, r, step);
        sidecarReads.track(before, now, r, step);
      }
    }
    this.lastStep = step;
    for (int r = 0; r < ranks; r++) {
      for (Map.Entry<Integer, Integer> q : queries.get(r).entrySet()) {
        int waiting = queued.get(r).getOrDefault(q.getKey(), 0);
        if (q.getValue() != waiting) {
          unmapped.add("rank " + r + "'s prefetch thread queries " + q.getValue() + " of the " + waiting
              + " operations queued in step " + q.getKey() + " (the implementation's pass takes every queued one)");
        }
      }
    }
  }

  /** Reads {@code trace}, a counterexample of a model with {@code ranks} ranks in one sync domain. */
  public static SpecSchedule of(ErrorTrace trace, int ranks) {
    return new SpecSchedule(trace, ranks, List.of());
  }

  /** As {@link #of(ErrorTrace, int)}, observing the residency of each key of {@code keys} (the model's Requests). */
  public static SpecSchedule of(ErrorTrace trace, int ranks, List<Integer> keys) {
    return new SpecSchedule(trace, ranks, keys.stream().distinct().sorted().toList());
  }

  /** Rank {@code rank}'s write copies in issue order. */
  public List<Copy> writes(int rank) {
    return writes.get(rank);
  }

  /** Rank {@code rank}'s load copies in issue order. */
  public List<Copy> loads(int rank) {
    return loads.get(rank);
  }

  /** The leading pages rank {@code rank}'s storage holds at each of its S7 queries, in order. */
  public List<Integer> hits(int rank) {
    return hits.get(rank);
  }

  /**
   * Whether rank {@code rank}'s prefetch thread takes its pass at the start of step {@code step}: it queries in
   * the states of step {@code step - 1}, or nothing is queued for it then.
   */
  public boolean passRuns(int rank, long step) {
    int s = (int) step - 1;
    if (s >= lastStep) {
      return true; // the trace ends in this window: an idle thread there is no choice, only the end of the trace
    }
    return queries.get(rank).getOrDefault(s, 0) > 0 || queued.get(rank).getOrDefault(s, 0) == 0;
  }

  /** Rank {@code rank}'s page reads, in order. */
  public List<Read> reads(int rank) {
    return reads.get(rank);
  }

  /** Rank {@code rank}'s sidecar page reads (StorageReadsSidecarPage; fails: no success counted), in order. */
  public List<Read> sidecarReads(int rank) {
    return sidecarReads.of(rank);
  }

  /** The step from which rank {@code rank}'s n-th backup is acked, in order of completion (FIFO). */
  public List<Integer> backups(int rank) {
    return backups.get(rank);
  }

  /** Rank {@code rank}'s batch-full condition at step {@code step}'s admission: "early", "late", "busy" or "no". */
  public String batchFull(int rank, long step) {
    return batchFull.get(rank).getOrDefault((int) step - 1, "no");
  }

  /** The request (index from 1) aborted on rank {@code rank} at step {@code step} (AbortArrives before it), or 0. */
  public int aborted(int rank, long step) {
    return aborts.get(rank).getOrDefault((int) step - 1, 0);
  }

  /** The running request (index from 1) aborted on rank {@code rank} at step {@code step}'s RECV (AbortRunningArrives before it), or 0. */
  public int abortedRunning(int rank, long step) {
    return runningAborts.get(rank).getOrDefault((int) step - 1, 0);
  }

  /** Whether some abort of the trace reaches some ranks of the domain only (WTO: each rank's own clock). */
  public boolean abortsDifferAcrossRanks() {
    for (int step = -1; step <= lastStep; step++) {
      for (int r = 1; r < ranks; r++) {
        if (aborted(r, step + 1) != aborted(0, step + 1)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether rank {@code rank}'s clock orders LRU timestamps the other way at step {@code step} (ClockSkews before it). */
  public boolean clockSkewed(int rank, long step) {
    return step >= skewedFrom[rank];
  }

  /** Whether rank {@code rank}'s admission takes the waiting queue newest first at step {@code step} (OrderSkews before it). */
  public boolean queueOrderSkewed(int rank, long step) {
    return step >= reorderedFrom[rank];
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

  /** Choices of driven actions that the implementation cannot make, each in a sentence. */
  public List<String> unmapped() {
    return unmapped;
  }

  /** The prefetch threads the trace kills, and the S7 a live one waits in for ever. */
  PrefetchThreadDeaths deaths() {
    return deaths;
  }

  /** The prefetch timeouts the trace fires, per rank. */
  PrefetchTimeouts timeouts() {
    return timeouts;
  }

  /** The number of ranks. */
  public int ranks() {
    return ranks;
  }

  private void trackEnvironment(TraceState before, TraceState now, int r, int step) {
    // Queued work the prefetch thread could take in this step's window (the rank waits at RECV): operations
    // issued (or stopped) before their S7, counted before the thread takes any.
    for (TraceState st : List.of(before, now)) {
      TlaValue.Rec sched = posted(st, r, "sched");
      if (sched != null && sched.fields().get("site") instanceof TlaValue.Str site && site.value().equals("RECV")) {
        queued.get(r).merge(step, queuedS7(st, r), Math::max);
      }
    }
    if ((now.action().equals("PfStorageHitQuery") || now.action().equals("PrefetchThreadQueries"))
        && posted(before, r, "pf") == null) {
      TlaValue.Rec call = posted(now, r, "pf");
      if (call != null && call.fields().get("val") instanceof TlaValue.Tuple val && !val.elements().isEmpty()) {
        hits.get(r).add((int) number(val.elements().get(0)));
        queries.get(r).merge(step, 1, Integer::sum);
      }
    }
    if (now.action().equals("StorageReadsPage")) {
      List<TlaValue> a = elements(rank(before, "pf", r));
      List<TlaValue> b = elements(rank(now, "pf", r));
      for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
        if (a.get(i).equals(b.get(i))) {
          continue;
        }
        boolean failed = field(b.get(i), "fail") instanceof TlaValue.Bool f && f.value()
            && !(field(a.get(i), "fail") instanceof TlaValue.Bool g && g.value());
        reads.get(r).add(new Read(step + 1, failed));
      }
    }
    if (now.action().equals("StorageBackupCompletes")
        && elements(rank(now, "baq", r)).size() > elements(rank(before, "baq", r)).size()) {
      backups.get(r).add(step + 1);
    }
    if (now.action().equals("AbortArrives") && number(field(rank(now, "lenv", r), "ab")) > 0
        && number(field(rank(before, "lenv", r), "ab")) == 0) {
      aborts.get(r).put(step, (int) number(field(rank(now, "lenv", r), "ab")));
    }
    if (now.action().equals("ClockSkews") && field(rank(now, "lenv", r), "clk") instanceof TlaValue.Bool c
        && c.value() && !(field(rank(before, "lenv", r), "clk") instanceof TlaValue.Bool b && b.value())) {
      skewedFrom[r] = step + 1;
    }
    if (now.action().equals("AbortRunningArrives") && number(field(rank(now, "lenv", r), "ab")) > 0
        && number(field(rank(before, "lenv", r), "ab")) == 0) {
      runningAborts.get(r).put(step, (int) number(field(rank(now, "lenv", r), "ab")));
    }
    if (now.action().equals("OrderSkews") && field(rank(now, "lenv", r), "ord") instanceof TlaValue.Bool o
        && o.value() && !(field(rank(before, "lenv", r), "ord") instanceof TlaValue.Bool b && b.value())) {
      reorderedFrom[r] = step + 1;
    }
    if (now.action().equals("BatchFills")) {
      TlaValue bf = field(rank(now, "lenv", r), "bf");
      if (bf instanceof TlaValue.Str s && !s.value().equals("no") && !bf.equals(field(rank(before, "lenv", r), "bf"))) {
        batchFull.get(r).put(step, s.value());
      }
    }
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

  private Observed observed(TraceState s, int r) {
    List<String> residency = new ArrayList<>();
    List<TlaValue> tree = elements(rank(s, "tree", r));
    for (int k : keys) {
      if (k - 1 < tree.size()) {
        // hp + hw: the implementation gives a node its host pages when its write-through starts (hw: being written)
        residency.add(residency(k, field(tree.get(k - 1), "dev") instanceof TlaValue.Bool d && d.value(),
            number(field(tree.get(k - 1), "hp")) + number(field(tree.get(k - 1), "hw"))));
      }
    }
    return new Observed(number(rank(s, "devFree", r)), number(rank(s, "hostFree", r)), length(rank(s, "wq", r)),
        length(rank(s, "lq", r)), number(rank(s, "waiting", r)), number(rank(s, "running", r)), residency);
  }

  /** Key {@code key}'s residency as both sides write it: {@code k1:dev+h2} (on device, 2 host pages), {@code k1:-}. */
  static String residency(int key, boolean device, long hostPages) {
    String where = (device ? "dev" : "") + (hostPages > 0 ? (device ? "+" : "") + "h" + hostPages : "");
    return "k" + key + ":" + (where.isEmpty() ? "-" : where);
  }
}
