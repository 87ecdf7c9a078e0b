package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.collective.LocalFabric;
import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import dev.hicachesync.sim.Divergence;
import dev.hicachesync.storage.WriterElection;
import dev.hicachesync.topology.CacheGroup;
import dev.hicachesync.topology.GroupCreation;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Replays a {@code HiCacheReplicas.tla} counterexample (attention DP &gt; 1) on the implementation's topology,
 * collectives and sync layer, one thread per rank ({@link ReplicaRank}), and compares the violated invariant by
 * name, as {@link JavaReplay} does.
 *
 * <p>The model's constants pick the three production switches: {@code GroupOrder} the {@link GroupCreation}
 * order of the start-up {@code new_group} calls (world collectives on a {@link LocalFabric}: a call that names
 * another member list fails by mismatch, B16), {@code CacheGroup} the {@link CacheGroup} whose groups the
 * scheduler's and the prefetch thread's {@code SyncLayer} reduce S1 and S7 over (the tp group spans the replicas:
 * a busy replica waits for an idle one until the fabric's timeout, B2), {@code Writer} the {@link WriterElection}
 * of the ranks that write their CP shard of a backed-up key (B13: a shard never written, {@code
 * StorageShardCoverage}); {@code Traffic} is each replica's request stream. The counterexample decides the
 * environment ({@link ReplicasSchedule}: when each write-through's GPU event and each storage write completes).
 * A spec deadlock is the implementation's {@code CollectiveMatching}; a violation the spec finds at a step
 * boundary (after an environment action) belongs to the step that starts there.
 */
final class ReplicasReplay {

  /** The MC module of the replicas models. */
  static final String MODULE = "MCHiCacheReplicas";

  /** The constants this replay reads. */
  static final Set<String> CONSTANTS = Set.of("DP", "CP", "TP", "PP", "GroupOrder", "CacheGroup", "Writer",
      "StorageOn", "Traffic", "PrefetchThreshold");

  private static final Duration TIMEOUT = Duration.ofMillis(800);

  private ReplicasReplay() {}

  /**
   * Replays {@code trace} (the counterexample of {@code schedule}, verdict {@code verdict}) on the implementation
   * configured as {@code model} ({@code k}: its constants' values); {@code invariants} are the schedule cfg's.
   */
  static ReplayReport run(String model, Map<String, TlaValue> k, String schedule, ErrorTrace trace, Verdict verdict,
      List<String> invariants) {
    boolean twin = !model.equals(schedule);
    Topology t = Topology.of(num(k, "DP"), num(k, "CP"), num(k, "TP"), num(k, "PP"));
    ReplicasSchedule s = ReplicasSchedule.of(trace, t.worldSize());
    String last = trace.states().get(trace.length() - 1).action();
    boolean atBoundary = !last.equals("SomeCollectiveCompletes") && !last.equals(TraceState.INITIAL);
    int specStep = s.lastStep() + (atBoundary && verdict.kind() != Verdict.Kind.DEADLOCK ? 1 : 0);
    String specSide = verdict + " at state " + trace.length() + ", " + (specStep < 0 ? "start-up" : "step " + specStep);
    if (!s.undriven().isEmpty() || t.pp() != 1) {
      List<String> why = new ArrayList<>();
      s.undriven().forEach(a -> why.add("action " + a + " has no seam in the replicas replay"));
      return new ReplayReport(model, schedule, ReplayReport.Outcome.NOT_REPLAYABLE, specSide, "not run", List.of(),
          why.isEmpty() ? "the replicas replay covers PP 1" : String.join("; ", why));
    }
    GroupCreation creation = GroupCreation.parse(str(k, "GroupOrder"));
    CacheGroup cacheGroup = CacheGroup.parse(str(k, "CacheGroup"));
    WriterElection election = WriterElection.parse(str(k, "Writer"));
    boolean storageOn = k.get("StorageOn") instanceof TlaValue.Bool b && b.value();
    List<TlaValue> streams = TraceReads.elements(k.get("Traffic"));
    List<String> lines = new ArrayList<>();
    lines.add("schedule: new_group order " + creation.label() + ", cache group " + cacheGroup.label()
        + ", storage writers " + election.label() + " " + election.writers(t) + ", storage " + (storageOn ? "on" : "off")
        + ", traffic " + k.get("Traffic").format());
    lines.addAll(s.describe());

    LocalFabric fabric = new LocalFabric(TIMEOUT);
    ReplicaRank.Shared shared = new ReplicaRank.Shared(t, election);
    List<ReplicaRank> ranks = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int r = 0; r < t.worldSize(); r++) {
      List<Long> traffic = TraceReads.elements(streams.get(t.coords(r).dp())).stream().map(TraceReads::number).toList();
      ReplicaRank rank = new ReplicaRank(r, t, creation, cacheGroup, election, storageOn, traffic,
          num(k, "PrefetchThreshold"), fabric, s, shared);
      ranks.add(rank);
      Thread th = new Thread(rank, "replica-rank-" + r);
      th.setDaemon(true);
      threads.add(th);
      th.start();
    }
    for (Thread th : threads) {
      try {
        th.join(TIMEOUT.toMillis() * 20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    for (int r = 0; r < threads.size(); r++) {
      if (threads.get(r).isAlive()) { // bounded: every collective times out, every rank idles in MAX_STEPS
        return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, "hang", lines,
            JavaReplay.IMPL_WRONG + "rank " + r + " neither finished nor failed within " + TIMEOUT.toMillis() * 20
                + " ms");
      }
    }
    for (ReplicaRank rank : ranks) {
      if (rank.crash() != null) {
        return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, "crash", lines,
            JavaReplay.IMPL_WRONG + rank.crash());
      }
    }
    List<ReplicaRank.Broken> broken = new ArrayList<>(ranks.stream().map(ReplicaRank::broken)
        .filter(java.util.Objects::nonNull).toList());
    if (broken.isEmpty()) { // every replica idle: the storage writes still pending land, then INV-8 once more
      long end = ranks.stream().mapToLong(ReplicaRank::idleStep).max().orElse(0);
      for (int r = 0; r < t.worldSize(); r++) {
        shared.land(r, Long.MAX_VALUE, s);
      }
      for (int r = 0; r < t.worldSize(); r++) {
        try {
          shared.checkCoverage(r);
        } catch (dev.hicachesync.sync.InvariantViolation v) {
          broken.add(new ReplicaRank.Broken(r, v.invariant(), end, v.getMessage()));
          break;
        }
      }
    }
    Divergence d = null;
    if (!broken.isEmpty()) {
      broken.sort(Comparator.comparingInt((ReplicaRank.Broken b) -> invariants.indexOf(b.invariant().name()))
          .thenComparingLong(ReplicaRank.Broken::step));
      ReplicaRank.Broken first = broken.get(0);
      d = new Divergence(first.step(), first.step() < 0 ? "start-up" : "step " + first.step(),
          broken.stream().map(ReplicaRank.Broken::invariant).distinct().toList(), first.rank(), -1, first.message(), "");
      lines.add("implementation: rank " + first.rank() + ": " + first.message());
    }
    String implSide = d != null ? JavaReplay.describe(d).replace("step -1, start-up", "start-up")
        : "no violation (every replica idle)";
    return JavaReplay.judge(model, schedule, specSide, implSide, lines, twin, verdict, d, specStep, invariants);
  }

  private static int num(Map<String, TlaValue> k, String name) {
    return (int) TraceReads.number(k.get(name));
  }

  private static String str(Map<String, TlaValue> k, String name) {
    return k.get(name) instanceof TlaValue.Str s ? s.value() : String.valueOf(k.get(name));
  }
}
