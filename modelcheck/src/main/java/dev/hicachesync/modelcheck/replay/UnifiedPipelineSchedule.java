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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a {@code HiCacheUnifiedPipeline.tla} counterexample schedules, per rank and step: the rank-local choices
 * of every stage's storage threads, which the replay makes the implementation take through the simulator's seams
 * ({@link UnifiedPipelineEnvironment}).
 *
 * <p>Steps. The spec's stages are not in lockstep: stage 0 counts a step from its RECV ({@code RecvComplete}),
 * a later stage from the pipe message it receives ({@code SchedRecvPipe}), and stage 0 may be up to {@code
 * MaxLag} steps ahead. The implementation's stages meet at every RECV (a broadcast over the whole sync
 * domain) and a later stage receives stage 0's forwarded S123 counts in its own event check. So each thread
 * event is placed by the rank's own progress at that state, on the implementation's two places where the
 * prefetch thread may pass: at the start of a step (before RECV) or right before the event check:
 * <ul>
 *   <li>stage 0: after its RECV of step k, before it posts its S123 ({@code pc = "events"}): before the event
 *       check of step k; anywhere else: at the start of the step after the last RECV;
 *   <li>a later stage that has logged j steps: its next event check is step j's ({@code pc = "recv"}) or step
 *       j + 1's (received, not yet admitted); before that event check when the domain's RECV of that step has
 *       completed in the spec, else at that step's start.
 * </ul>
 * Recorded per rank: the places of its S7 queries ({@code PfQuery(r, h)}) and the pages {@code h} each finds;
 * when each S7 outcome reaches the scheduler ({@code PfPutHit}, or {@code S7Complete} itself under knob {@code
 * threads_sync}): at once when in the same place as the query, else at the start of the step of its place, or
 * after the trace. Each backup thread's acks ({@code BackupOk}, knob {@code backup}) land at the start of the step
 * of their place ({@link #backupLands}). The spec's reads with their completion MIN and acks ({@code PfRead},
 * {@code SyncComplete}, {@code PutAck}) have no seam here without knob {@code tickets} ({@link #undriven}). Every event is read from
 * the change of state it makes, not from the action's name, so a module that wraps this one (a monitor whose
 * steps TLC names after its own next-state action) has its trace read alike.
 */
public final class UnifiedPipelineSchedule {

  /** Where a storage thread acts: before step {@code step}'s event check ({@code beforeEvents}) or at its start. */
  record Place(int step, boolean beforeEvents) {
    @Override
    public String toString() {
      return (beforeEvents ? "before the event check of step " : "at the start of step ") + step;
    }
  }

  private final int ranks;
  private final int stageSize;
  private final List<List<Place>> passes = new ArrayList<>();
  private final List<List<Integer>> hits = new ArrayList<>();
  /** Per rank, per S7 query in order: the step at whose start its outcome reaches the scheduler, -1 at once. */
  private final List<List<Integer>> deposits = new ArrayList<>();
  private final Set<String> undriven = new LinkedHashSet<>();
  /** Per rank, the place of each of its backup thread's acks ({@code BackupOk}), in order. */
  private final List<List<Place>> backups = new ArrayList<>();
  /** Ticket workers' hits and every rank's reads (knob tickets), read beside the S7 queries. */
  private final TicketEvents tickets;
  private final int lastStep;

  private UnifiedPipelineSchedule(ErrorTrace trace, int ranks, int stageSize) {
    this.ranks = ranks;
    this.stageSize = stageSize;
    this.tickets = new TicketEvents(ranks);
    List<Place> queriedAt = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      passes.add(new ArrayList<>());
      hits.add(new ArrayList<>());
      deposits.add(new ArrayList<>());
      backups.add(new ArrayList<>());
      queriedAt.add(null);
    }
    int recvs = 0;
    TraceState before = null;
    for (TraceState now : trace.states()) {
      if (before == null) {
        before = now;
        continue;
      }
      // Each event is read from the state change, not the action's name: a trace of a module that wraps this
      // one (ConsensusMonitorPipeline's MonNext) names every step alike.
      TlaValue.Rec recv = posted(before, 0, "sched");
      if (recv != null && recv.fields().get("site") instanceof TlaValue.Str site && site.value().equals("RECV")
          && !recv.equals(posted(now, 0, "sched"))) {
        recvs++; // RecvComplete: stage 0's broadcast returned
      }
      for (int r = 0; r < ranks; r++) {
        TlaValue.Rec call = posted(now, r, "pf");
        if (posted(before, r, "pf") == null && call != null) { // PfQuery(r, h): the S7 call posted
          List<TlaValue> val = elements(call.fields().get("val"));
          Place p = place(before, r, recvs);
          hits.get(r).add(val.isEmpty() ? 0 : (int) number(val.get(0)));
          passes.get(r).add(p);
          queriedAt.set(r, p);
          deposits.get(r).add(Integer.MAX_VALUE); // not queued within the trace
        } else if (TicketEvents.hitWithoutQuery(before, now, r)) { // a ticket worker's hit, or its own (own_hit)
          Place own = place(before, r, recvs);
          Place p = TicketEvents.ticketed(before, now, r % stageSize) // S7Complete on stage 0: its ticket
              ? TicketEvents.later(own, place(before, r % stageSize, recvs)) : own;
          hits.get(r).add(TicketEvents.hit(now, r));
          passes.get(r).add(p);
          queriedAt.set(r, p);
          deposits.get(r).add(Integer.MAX_VALUE);
        }
        // PfPutHit(r), or S7Complete under knob threads_sync: the hit queue grows
        boolean put = number(field(rank(now, "q", r), "hit")) > number(field(rank(before, "q", r), "hit"));
        int pending = deposits.get(r).indexOf(Integer.MAX_VALUE);
        if (put && pending >= 0) {
          Place p = place(before, r, recvs);
          deposits.get(r).set(pending, p.equals(queriedAt.get(r)) ? -1 : p.step());
        }
        if (tickets.readAt(before, now, r, place(before, r, recvs))) {
          undriven.add("PfRead"); // a storage read and its completion MIN: driven with knob tickets only
        }
        if (number(field(rank(now, "q", r), "bka")) > number(field(rank(before, "q", r), "bka"))) {
          backups.get(r).add(place(before, r, recvs)); // BackupOk(r): its backup thread acked one node
        }
      }
      before = now;
    }
    this.lastStep = Math.max(0, recvs - 1);
  }

  /** The implementation's place of a thread event of rank {@code r} in the state {@code s}, after {@code recvs} RECVs. */
  private Place place(TraceState s, int r, int recvs) {
    String pc = rank(s, "pc", r) instanceof TlaValue.Str p ? p.value() : "";
    if (r < stageSize) {
      return recvs > 0 && pc.equals("events") ? new Place(recvs - 1, true) : new Place(recvs, false);
    }
    int logged = (int) number(rank(s, "step", r)); // received and (Drain stage_local) before its own S123: this step
    int next = pc.equals("recv") || pc.equals("events") ? logged : logged + 1;
    return new Place(next, recvs > next);
  }

  /** Reads {@code trace}, a counterexample of a HiCacheUnifiedPipeline model with {@code ranks} ranks, {@code stageSize} per stage. */
  public static UnifiedPipelineSchedule of(ErrorTrace trace, int ranks, int stageSize) {
    return new UnifiedPipelineSchedule(trace, ranks, stageSize);
  }

  int ranks() {
    return ranks;
  }

  /**
   * Whether rank {@code rank}'s prefetch thread passes at the start of step {@code step}: where the spec's
   * query is; after the trace's last RECV the thread is free (except where it passes mid-step).
   */
  boolean passRuns(int rank, long step) {
    List<Place> p = passes.get(rank);
    return p.contains(new Place((int) step, false)) || tickets.passAt(rank, new Place((int) step, false))
        || step > lastStep + 1 && !passBeforeEvents(rank, step);
  }

  /** Whether rank {@code rank}'s prefetch thread passes in step {@code step} after RECV, before its event check. */
  boolean passBeforeEvents(int rank, long step) {
    Place mid = new Place((int) step, true);
    return passes.get(rank).contains(mid) || tickets.passAt(rank, mid);
  }

  /**
   * The step at whose start rank {@code rank}'s {@code n}-th storage backup is acked ({@code BackupOk}), or
   * {@link Integer#MAX_VALUE} when the trace never acks it.
   */
  int backupLands(int rank, int n) {
    List<Place> b = backups.get(rank);
    return n < b.size() ? b.get(n).step() : Integer.MAX_VALUE;
  }

  /** Ticket workers' hits and every rank's reads, as the trace has them. */
  TicketEvents tickets() {
    return tickets;
  }

  /** The pages rank {@code rank}'s storage holds at each of its S7 queries, in order. */
  List<Integer> hits(int rank) {
    return hits.get(rank);
  }

  /**
   * The step at whose start rank {@code rank}'s {@code n}-th S7 outcome reaches its scheduler: -1 at once (in
   * the pass's phase), {@link Integer#MAX_VALUE} when the trace never queues it.
   */
  int deposit(int rank, int n) {
    List<Integer> d = deposits.get(rank);
    return n < d.size() ? d.get(n) : -1;
  }

  /** Whether some rank's prefetch thread queries (posts S7) at the start of step {@code step}. */
  boolean queriesAtStartOf(int step) {
    return passes.stream().anyMatch(p -> p.contains(new Place(step, false)));
  }

  /** The step of the trace's last state: stage 0's RECVs completed, minus one. */
  public int lastStep() {
    return lastStep;
  }

  /** The spec's actions of the trace this replay has no seam for (reads, backups), in order. */
  public Set<String> undriven() {
    return undriven;
  }

  /**
   * The S7 rounds (each rank's n-th query, one collective over the pp group) whose places fall in different
   * steps on different ranks, one phrase each ("S7 round 1: step 1 on rank 0, step 0 on rank 1"); empty when
   * every round is in one step. The spec's stages are not in lockstep, so a round may be between two steps of
   * stage 0 and inside a step of a later stage.
   */
  public List<String> roundsAcrossSteps() {
    List<String> out = new ArrayList<>();
    for (int n = 0; ; n++) {
      List<String> where = new ArrayList<>();
      Set<Integer> steps = new TreeSet<>();
      for (int r = 0; r < ranks; r++) {
        if (n < passes.get(r).size()) {
          steps.add(passes.get(r).get(n).step());
          where.add("step " + passes.get(r).get(n).step() + " on rank " + r);
        }
      }
      if (where.isEmpty()) {
        return out;
      }
      if (steps.size() > 1) {
        out.add("S7 round " + (n + 1) + ": " + String.join(", ", where));
      }
    }
  }

  /** One line per rank: what the replay makes its prefetch thread do. */
  public List<String> describe() {
    List<String> out = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      if (passes.get(r).isEmpty()) {
        continue;
      }
      out.add("schedule rank " + r + " (stage " + r / stageSize + ") prefetch thread passes "
          + String.join(", ", new TreeSet<>(passes.get(r).stream().map(Place::toString).toList()))
          + " (and every step after " + (lastStep + 1) + "), storage hits at S7 " + hits.get(r)
          + ", each outcome queued " + String.join(", ", deposits.get(r).stream().map(d -> d < 0 ? "at once"
              : d == Integer.MAX_VALUE ? "after the trace" : "at step " + d + "'s start").toList()));
    }
    for (int r = 0; r < ranks; r++) {
      if (!backups.get(r).isEmpty()) {
        out.add("schedule rank " + r + " backup thread acks a backup " + String.join(", ",
            backups.get(r).stream().map(Place::toString).toList()));
      }
    }
    out.addAll(tickets.describe());
    return out;
  }
}
