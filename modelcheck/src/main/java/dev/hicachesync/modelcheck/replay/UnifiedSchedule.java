package dev.hicachesync.modelcheck.replay;

import static dev.hicachesync.modelcheck.replay.TraceReads.elements;
import static dev.hicachesync.modelcheck.replay.TraceReads.field;
import static dev.hicachesync.modelcheck.replay.TraceReads.number;
import static dev.hicachesync.modelcheck.replay.TraceReads.posted;
import static dev.hicachesync.modelcheck.replay.TraceReads.rank;

import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a {@code HiCacheUnified.tla} counterexample schedules, per rank and step: every rank-local choice the
 * replay makes the implementation take through the simulator's seams ({@link UnifiedEnvironment}).
 *
 * <p>A state's step is the number of RECVs completed up to it ({@code RecvComplete}), minus one: what a rank
 * does after step k's RECV belongs to step k. The spec's storage threads run whenever they are enabled; the
 * implementation's prefetch thread takes its pass at the start of a step, before RECV, so a query the spec
 * makes in step k's states is the pass of step k + 1.
 *
 * <ul>
 *   <li>the runtime attach ({@code EnvAttachFails}): the ranks whose backend fails at the attach the first RECV
 *       handles;
 *   <li>the waiting-queue aborts ({@code SchedAbortCheck} that empties {@code waiting[r]}: the rank's clock,
 *       {@code EnvClock}, fired): the request aborted on each rank, per step;
 *   <li>the prefetch thread's queries ({@code PfQuery(r, h)}): the steps whose pass runs and the pages {@code h}
 *       each query finds ({@code S7}'s posted value);
 *   <li>the admission's rank-local batch-full test ({@code EnvBatchFull}: {@code env[r].bf} when rank r's
 *       {@code SchedAdmit} runs);
 *   <li>when each S7 outcome reaches the scheduler ({@code PfPutHit}): at once, or at the start of the step
 *       after the RECV it follows;
 *   <li>the PD decode load-backs' GPU events ({@code EnvLoadDone(r)}, Knob {@code pd_decode}): the step whose
 *       event check first sees each of the rank's load-backs done (they complete in order);
 *   <li>its backup thread's acks ({@code BackupOk}, knob {@code buffer_only}): at the start of the step after the
 *       last RECV (one after RECV, before the rank's own S123, is unmapped);
 *   <li>the queries that raise ({@code PfRaise(r)}, knob {@code pf_raise}): which of the rank's queries, in order,
 *       and (bug {@code PFDIE}: the thread dies instead of posting S7 with 0 hit pages) from which pass the rank's
 *       prefetch thread is dead and which S7 its peer then waits in for ever ({@link PrefetchThreadDeaths});
 *   <li>its storage reads ({@code PfRead(r, k)}): whether each fails (k below the hit) and when it lands: before
 *       the rank's admission of the step when the spec's read comes first, else at the next step's start; a
 *       read (its completion sync, S5) before the rank's own S123 is a pass right before the event check.
 * </ul>
 * A query that comes before the rank's own S123 of the step is a pass right before the implementation's event
 * check. A choice the implementation cannot take is named in {@link #unmapped}: a prefetch timeout on a rank's
 * own clock (an S4 that posts 1).
 */
final class UnifiedSchedule {

  /** Actions whose choices this schedule maps (the scheduler's and the collectives' need no seam). */
  static final Set<String> DRIVEN = Set.of(TraceState.INITIAL, "SchedRecv", "RecvComplete", "SchedAbortCheck",
      "SchedEvents", "EventsComplete", "SchedPdLoad", "SchedAdmit", "S4Complete", "EnvAttachFails", "EnvClock",
      "PfQuery", "S7Complete", "PfPutHit", "EnvBatchFull", "PfRead", "SyncComplete", "PutAck", "EnvLoadDone",
      "SchedAttach", "GroupsComplete", "SchedAttachRest", "AttachOkComplete", "BackupOk", "PfRaise");

  private final int ranks;
  private final List<Integer> attachFails = new ArrayList<>();
  /** The ranks that started an attach step by step (SchedAttach) already: a later failure is a retry's. */
  private final Set<Integer> attachTried = new HashSet<>();
  private final List<Map<Integer, Integer>> aborts = new ArrayList<>();
  private final List<Set<Integer>> passes = new ArrayList<>();
  /** Per rank, the steps whose prefetch pass comes after RECV, before the rank's own S123. */
  private final List<Set<Integer>> inStepPasses = new ArrayList<>();
  private final List<List<Integer>> hits = new ArrayList<>();
  /** Per rank, the indices (from 0, over PfQuery and PfRaise in order) of its queries that raise. */
  private final List<Set<Integer>> raises = new ArrayList<>();
  private final PrefetchThreadDeaths deaths;
  private final List<Map<Integer, Boolean>> batchFull = new ArrayList<>();
  private final UnifiedStorageReads reads;
  private final UnifiedBackupAcks backups;
  /** Per rank, the step whose event check first sees each load-back done (EnvLoadDone), in order. */
  private final List<List<Integer>> loadsDone = new ArrayList<>();
  /** Per rank, per S7 query in order: the step at whose start its outcome reaches the scheduler, -1 at once. */
  private final List<List<Integer>> deposits = new ArrayList<>();
  private final Set<String> undriven = new LinkedHashSet<>();
  private final List<String> unmapped = new ArrayList<>();
  private final int lastStep;
  /** Whether the trace's last state is a lockstep point: every rank posted on RECV (the spec's {@code Lockstep}). */
  private final boolean endsAtLockstep;

  private UnifiedSchedule(ErrorTrace trace, int ranks) {
    this.ranks = ranks;
    this.backups = new UnifiedBackupAcks(ranks);
    this.reads = new UnifiedStorageReads(ranks);
    this.deaths = new PrefetchThreadDeaths(ranks);
    for (int r = 0; r < ranks; r++) {
      raises.add(new HashSet<>());
      aborts.add(new HashMap<>());
      passes.add(new HashSet<>());
      inStepPasses.add(new HashSet<>());
      hits.add(new ArrayList<>());
      batchFull.add(new HashMap<>());
      deposits.add(new ArrayList<>());
      loadsDone.add(new ArrayList<>());
    }
    int recvs = 0;
    int[] queriedAt = new int[ranks];
    int[] queries = new int[ranks]; // the rank's queries so far, PfQuery and PfRaise
    boolean[] inStep = new boolean[ranks]; // the rank's last query came before its own S123 of the step
    boolean[] eventsPosted = new boolean[ranks]; // the rank posted its S123 since the last RECV
    TraceState before = null;
    for (TraceState now : trace.states()) {
      String action = now.action();
      if (!DRIVEN.contains(action)) {
        undriven.add(action);
      }
      if (before == null) {
        before = now;
        continue;
      }
      int step = recvs - 1;
      switch (action) {
        case "RecvComplete" -> {
          recvs++;
          java.util.Arrays.fill(eventsPosted, false);
          if (attachFails.isEmpty() && changed(before, now, "attachDone")) {
            for (int r = 0; r < ranks; r++) {
              if (flag(before, r, "afail")) {
                attachFails.add(r);
              }
            }
          }
        }
        case "SchedAttach" -> { // Knob attach_steps: the rank's backend outcome when its attach starts
          for (int r = 0; r < ranks; r++) {
            if (!rank(before, "pc", r).equals(rank(now, "pc", r)) && flag(before, r, "afail")) {
              if (attachTried.contains(r)) {
                unmapped.add("rank " + r + "'s backend fails at a retried attach (EnvAttachFails after its first"
                    + " SchedAttach): the implementation's backend fails at its first attach only");
              } else {
                attachFails.add(r);
              }
            }
            if (!rank(before, "pc", r).equals(rank(now, "pc", r))) {
              attachTried.add(r);
            }
          }
        }
        case "SchedAbortCheck" -> {
          for (int r = 0; r < ranks; r++) {
            long w = number(rank(before, "waiting", r));
            if (w > 0 && number(rank(now, "waiting", r)) == 0) {
              aborts.get(r).put(step, (int) w);
            }
          }
        }
        case "PfQuery", "PfRaise" -> {
          for (int r = 0; r < ranks; r++) {
            TlaValue.Rec call = posted(now, r, "pf");
            boolean posts = posted(before, r, "pf") == null && call != null;
            boolean dies = flag(now, r, "pfdead") && !flag(before, r, "pfdead"); // PFDIE: no S7 posted
            if (posts || dies) {
              if (action.equals("PfRaise")) {
                raises.get(r).add(queries[r]);
              } else {
                List<TlaValue> val = elements(call.fields().get("val"));
                hits.get(r).add(val.isEmpty() ? 0 : (int) number(val.get(0)));
              }
              queries[r]++;
              String pc = rank(before, "pc", r) instanceof TlaValue.Str p ? p.value() : "";
              // before the rank's own S123 of the step: the implementation's thread passes mid-step there
              inStep[r] = recvs > 0 && (pc.equals("abort") || pc.equals("events"));
              int pass = inStep[r] ? step : recvs;
              (inStep[r] ? inStepPasses : passes).get(r).add(pass);
              if (dies) {
                deaths.dies(r, pass);
              } else {
                queriedAt[r] = recvs;
                deposits.get(r).add(Integer.MAX_VALUE); // not queued within the trace
                deaths.s7Posted(r, pass);
              }
            }
          }
        }
        case "PfRead" -> reads.read(before, now, recvs, step, inStepPasses);
        case "SchedEvents" -> {
          for (int r = 0; r < ranks; r++) {
            if (!rank(before, "pc", r).equals(rank(now, "pc", r))) {
              eventsPosted[r] = true;
            }
          }
        }
        case "PfPutHit" -> {
          for (int r = 0; r < ranks; r++) {
            List<Integer> d = deposits.get(r);
            int pending = d.indexOf(Integer.MAX_VALUE);
            if (number(field(rank(now, "q", r), "hit")) > number(field(rank(before, "q", r), "hit")) && pending >= 0) {
              // at once unless a later RECV came first, or (a mid-step pass) the rank's S123 already ran
              d.set(pending, recvs == queriedAt[r] && !(inStep[r] && eventsPosted[r]) ? -1 : recvs);
            }
          }
        }
        case "EnvLoadDone" -> {
          for (int r = 0; r < ranks; r++) { // at a step boundary: the next RECV's step sees it
            if (number(field(rank(now, "q", r), "ldd")) > number(field(rank(before, "q", r), "ldd"))) {
              loadsDone.get(r).add(recvs);
            }
          }
        }
        case "BackupOk" -> backups.read(before, now, recvs, step, unmapped);
        case "SchedAdmit" -> {
          for (int r = 0; r < ranks; r++) {
            if (!rank(before, "pc", r).equals(rank(now, "pc", r))) {
              batchFull.get(r).put(step, flag(before, r, "bf"));
            }
          }
        }
        default -> { }
      }
      for (int r = 0; r < ranks; r++) {
        if (posted(now, r, "pf") == null) {
          deaths.s7Ended(r);
        }
        TlaValue.Rec call = posted(now, r, "sched");
        if (posted(before, r, "sched") == null && call != null && call.fields().get("site") instanceof TlaValue.Str site
            && site.value().equals("S4") && !elements(call.fields().get("val")).isEmpty()
            && number(elements(call.fields().get("val")).get(0)) == 1) {
          unmapped.add("rank " + r + "'s prefetch timed out on its own clock (EnvClock, S4 posts 1) in step " + step
              + ": the implementation's timeout reads the run's clock, which no seam sets");
        }
      }
      before = now;
    }
    this.lastStep = Math.max(0, recvs - 1);
    boolean lockstep = before != null;
    for (int r = 0; r < ranks && lockstep; r++) {
      TlaValue.Rec call = posted(before, r, "sched");
      lockstep = call != null && call.fields().get("site") instanceof TlaValue.Str site && site.value().equals("RECV");
    }
    this.endsAtLockstep = lockstep;
  }

  /** Reads {@code trace}, a counterexample of a HiCacheUnified model with {@code ranks} ranks. */
  static UnifiedSchedule of(ErrorTrace trace, int ranks) {
    return new UnifiedSchedule(trace, ranks);
  }

  int ranks() {
    return ranks;
  }

  /** The ranks whose backend fails at the runtime attach (empty when none or no attach). */
  List<Integer> attachFails() {
    return attachFails;
  }

  /** The request (index from 1) aborted on rank {@code rank} at step {@code step}, or 0. */
  int aborted(int rank, long step) {
    return aborts.get(rank).getOrDefault((int) step, 0);
  }

  /** Whether some abort of the trace is made on some ranks of the domain only (WTO: each rank's own clock). */
  boolean abortsDifferAcrossRanks() {
    for (int r = 1; r < ranks; r++) {
      if (!aborts.get(r).equals(aborts.get(0))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether rank {@code rank}'s prefetch thread takes its pass at the start of step {@code step}: the spec's
   * thread queries in the states of step {@code step - 1}; after the trace's last RECV the thread is free.
   */
  boolean passRuns(int rank, long step) {
    return step > lastStep + 1 && !inStepPasses.get(rank).contains((int) step) || passes.get(rank).contains((int) step);
  }

  /** Whether rank {@code rank}'s prefetch thread passes in step {@code step} after RECV, before its S123. */
  boolean passBeforeEvents(int rank, long step) {
    return inStepPasses.get(rank).contains((int) step);
  }

  /** Whether rank {@code rank}'s {@code n}-th storage query (from 0, raising ones included) raises. */
  boolean raises(int rank, int n) {
    return raises.get(rank).contains(n);
  }

  /** The prefetch threads the trace kills (bug PFDIE) and the S7 a peer then waits in for ever. */
  PrefetchThreadDeaths deaths() {
    return deaths;
  }

  /** The pages rank {@code rank}'s storage holds at each of its S7 queries that do not raise, in order. */
  List<Integer> hits(int rank) {
    return hits.get(rank);
  }

  /**
   * The step at whose start rank {@code rank}'s {@code n}-th S7 outcome reaches its scheduler ({@code PfPutHit}):
   * -1 at once (in the pass's phase), {@link Integer#MAX_VALUE} when the trace never queues it.
   */
  int deposit(int rank, int n) {
    List<Integer> d = deposits.get(rank);
    return n < d.size() ? d.get(n) : -1;
  }

  /**
   * The step whose event check first sees rank {@code rank}'s {@code n}-th load-back done, or {@link
   * Integer#MAX_VALUE} when the trace never completes it.
   */
  int loadDone(int rank, int n) {
    List<Integer> d = loadsDone.get(rank);
    return n < d.size() ? d.get(n) : Integer.MAX_VALUE;
  }

  /**
   * The step at whose start rank {@code rank}'s {@code n}-th backup is acked ({@code BackupOk}), or {@link
   * Integer#MAX_VALUE} when the trace never acks it.
   */
  int backupLands(int rank, int n) {
    return backups.lands(rank, n);
  }

  /** Rank {@code rank}'s storage reads, in order. */
  List<UnifiedStorageReads.Read> reads(int rank) {
    return reads.of(rank);
  }

  /** Rank {@code rank}'s rank-local batch-full test at step {@code step}'s admission. */
  boolean batchFull(int rank, long step) {
    return batchFull.get(rank).getOrDefault((int) step, false);
  }

  /** The step of the trace's last state: RECVs completed before it, minus one. */
  int lastStep() {
    return lastStep;
  }

  /**
   * Whether the trace ends at a lockstep point (every rank posted on RECV, the next RECV not completed): where the
   * spec checks its agreement invariants, and the implementation compares at that next step's RECV.
   */
  boolean endsAtLockstep() {
    return endsAtLockstep;
  }

  /** Actions of the trace this replay has no seam for, in order. */
  Set<String> undriven() {
    return undriven;
  }

  /** Choices of driven actions the implementation cannot take, each in a sentence. */
  List<String> unmapped() {
    return unmapped;
  }

  /** One line per rank and kind of choice: what the replay makes the code do. */
  List<String> describe() {
    List<String> out = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      if (!passes.get(r).isEmpty() || !inStepPasses.get(r).isEmpty()) {
        out.add("schedule rank " + r + " prefetch thread passes at the start of steps " + new java.util.TreeSet<>(
            passes.get(r)) + (inStepPasses.get(r).isEmpty() ? "" : " and before the event check of steps "
            + new java.util.TreeSet<>(inStepPasses.get(r))) + " (and every step after " + (lastStep + 1)
            + "), storage hits at S7 " + hits.get(r) + (raises.get(r).isEmpty() ? ""
                : ", queries " + new java.util.TreeSet<>(raises.get(r)) + " (from 0) raise")
            + ", each outcome queued " + String.join(", ", deposits.get(r).stream().map(d -> d < 0 ? "at once"
                : d == Integer.MAX_VALUE ? "after the trace" : "at step " + d + "'s start").toList()));
      }
      if (reads.describe(r) != null) {
        out.add(reads.describe(r));
      }
      if (backups.describe(r) != null) {
        out.add(backups.describe(r));
      }
      if (!loadsDone.get(r).isEmpty()) {
        out.add("schedule rank " + r + " load-back events done by the event check of steps " + loadsDone.get(r));
      }
      for (Map.Entry<Integer, Integer> a : new java.util.TreeMap<>(aborts.get(r)).entrySet()) {
        out.add("schedule rank " + r + " aborts waiting request " + a.getValue() + " at step " + a.getKey()
            + " (its clock fired)");
      }
      for (Map.Entry<Integer, Boolean> b : new java.util.TreeMap<>(batchFull.get(r)).entrySet()) {
        if (b.getValue()) {
          out.add("schedule rank " + r + " batch full (rank-local test) at step " + b.getKey() + "'s admission");
        }
      }
    }
    return out;
  }

  private static boolean changed(TraceState a, TraceState b, String var) {
    return !a.variables().get(var).equals(b.variables().get(var));
  }

  /** env[r].{@code name} in state {@code st}. */
  private static boolean flag(TraceState st, int r, String name) {
    return field(rank(st, "env", r), name) instanceof TlaValue.Bool b && b.value();
  }
}
