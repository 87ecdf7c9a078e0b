package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.collective.CollectiveException;
import dev.hicachesync.collective.LocalFabric;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.storage.StorageShardCoverage;
import dev.hicachesync.storage.WriterElection;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.sync.SyncGroups;
import dev.hicachesync.sync.SyncLayer;
import dev.hicachesync.sync.SyncPoint;
import dev.hicachesync.topology.CacheGroup;
import dev.hicachesync.topology.GroupCreation;
import dev.hicachesync.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One rank of a {@code HiCacheReplicas} replay, on its own thread, over the production topology, collectives and
 * sync layer: its start-up {@code new_group} calls in the {@link GroupCreation} order (world collectives on a
 * {@link LocalFabric}), then per step the domain's RECV, S7 (the storage-hit MIN, on the prefetch thread's
 * groups) for a new request when storage is on, and S1 ({@code writing_check}'s MIN of the leading done write
 * acks), both reduced by a {@link SyncLayer} of version {@code post20460} over the {@link CacheGroup}'s groups; the
 * popped acks start the storage backup, which the {@link WriterElection}'s writers perform. A replica steps while
 * it has requests or unpopped acks, then idles without a collective, as the spec's does. The request loop is the
 * spec's thin one (every request misses L1 and L2); the environment's events come from the counterexample
 * ({@link ReplicasSchedule}).
 */
final class ReplicaRank implements Runnable {

  /** What a rank broke, at which step (-1: start-up), or null for none. */
  record Broken(int rank, Invariant invariant, long step, String message) {}

  /** The state every rank of the run shares: storage (key to CP shards) and each rank's backups. */
  static final class Shared {
    private final Map<Long, Set<Integer>> l3 = new HashMap<>();
    private final List<Set<Long>> bk = new ArrayList<>();
    private final List<Set<Long>> sbq = new ArrayList<>();
    private final Topology topology;
    private final WriterElection election;

    Shared(Topology topology, WriterElection election) {
      this.topology = topology;
      this.election = election;
      for (int r = 0; r < topology.worldSize(); r++) {
        bk.add(new HashSet<>());
        sbq.add(new HashSet<>());
      }
    }

    synchronized boolean holds(long key, int cp) {
      return l3.getOrDefault(key, Set.of()).contains(cp);
    }

    synchronized void backup(int rank, List<Long> keys, boolean writer) {
      bk.get(rank).addAll(keys);
      if (writer) {
        sbq.get(rank).addAll(keys);
      }
    }

    /** Lands rank {@code rank}'s storage writes due by {@code step} (all of them when {@code step} is MAX). */
    synchronized void land(int rank, long step, ReplicasSchedule schedule) {
      for (var it = sbq.get(rank).iterator(); it.hasNext(); ) {
        long k = it.next();
        if (schedule.storageWrite(rank, k) <= step) {
          l3.computeIfAbsent(k, x -> new TreeSet<>()).add(topology.coords(rank).cp());
          it.remove();
        }
      }
    }

    /**
     * INV-8 at a step boundary of {@code rank}'s domain: a key whose backup is done (every rank of the domain
     * popped its ack, none still writes it) has every CP shard in storage.
     */
    synchronized void checkCoverage(int rank) {
      List<Integer> domain = topology.syncDomain(rank);
      for (long k : new TreeSet<>(bk.get(rank))) {
        boolean done = domain.stream().allMatch(q -> bk.get(q).contains(k) && !sbq.get(q).contains(k));
        Set<Integer> held = l3.getOrDefault(k, Set.of());
        if (done && held.size() < topology.cp()) {
          throw new InvariantViolation(Invariant.StorageShardCoverage, "key " + k + " backed up by ranks " + domain
              + " but storage holds CP shards " + held + " of " + topology.cp() + " (writer election "
              + election.label() + " never writes " + StorageShardCoverage.unwrittenShards(topology, election) + ")");
        }
      }
    }
  }

  /** A bound on a rank's steps: every model's traffic ends within a few (its acks pop after the trace). */
  static final int MAX_STEPS = 1000;

  private final int rank;
  private final Topology topology;
  private final GroupCreation creation;
  private final CacheGroup cacheGroup;
  private final boolean writer;
  private final boolean storageOn;
  private final List<Long> traffic;
  private final long threshold;
  private final LocalFabric fabric;
  private final ReplicasSchedule schedule;
  private final Shared shared;
  private volatile Broken broken;
  /** What the rank threw that is neither a collective's failure nor an invariant's, or null. */
  private volatile String crash;
  /** The step at which the rank went idle (its domain's RECVs), or -1 while it steps. */
  private volatile long idleStep = -1;
  private volatile long step = -1;

  ReplicaRank(int rank, Topology topology, GroupCreation creation, CacheGroup cacheGroup, WriterElection election,
      boolean storageOn, List<Long> traffic, long threshold, LocalFabric fabric, ReplicasSchedule schedule,
      Shared shared) {
    this.rank = rank;
    this.topology = topology;
    this.creation = creation;
    this.cacheGroup = cacheGroup;
    this.writer = election.isWriter(topology, rank);
    this.storageOn = storageOn;
    this.traffic = traffic;
    this.threshold = threshold;
    this.fabric = fabric;
    this.schedule = schedule;
    this.shared = shared;
  }

  Broken broken() {
    return broken;
  }

  String crash() {
    return crash;
  }

  long idleStep() {
    return idleStep;
  }

  @Override
  public void run() {
    try {
      List<Integer> world = new ArrayList<>();
      for (int r = 0; r < topology.worldSize(); r++) {
        world.add(r);
      }
      creation.create(fabric.group("world", world, rank), topology, rank);
      SyncLayer sched = layer("sched");
      SyncLayer pf = layer("pf");
      ProcessGroup domain = fabric.group("domain", topology.syncDomain(rank), rank);
      List<Long> wq = new ArrayList<>();
      int req = 0;
      int issued = 0;
      int popped = 0;
      for (step = 0; ; step++) {
        if (step > MAX_STEPS) {
          crash = "rank " + rank + " still steps after " + MAX_STEPS + " steps (it never goes idle)";
          return;
        }
        shared.land(rank, step, schedule);
        if (req >= traffic.size() && wq.isEmpty()) {
          idleStep = step;
          return; // idle: no collective any more (the idle replica of B2)
        }
        domain.allReduce(SyncPoint.RECV.name(), ReduceOp.MAX, new long[] {0});
        shared.checkCoverage(rank);
        if (req < traffic.size()) {
          long k = traffic.get(req++);
          long hit = storageOn && shared.holds(k, topology.coords(rank).cp()) ? 1 : 0;
          if (!storageOn || pf.reduce(SyncPoint.S7, ReduceOp.MIN, new long[] {hit})[0] < threshold) {
            wq.add(k); // computed, written through: its ack queued
            issued++;
          }
        }
        int done = 0;
        while (popped + done < issued && schedule.writeDone(rank, popped + done) <= step) {
          done++;
        }
        int n = (int) sched.reduce(SyncPoint.S1, ReduceOp.MIN, new long[] {done})[0];
        List<Long> ks = new ArrayList<>(wq.subList(0, n));
        wq.subList(0, n).clear();
        popped += n;
        if (storageOn) {
          shared.backup(rank, ks, writer);
        }
      }
    } catch (CollectiveException e) {
      broken = new Broken(rank, Invariant.CollectiveMatching, step, oneLine(e.getMessage()));
    } catch (InvariantViolation v) {
      broken = new Broken(rank, v.invariant(), step, oneLine(v.getMessage()));
    } catch (RuntimeException e) {
      crash = "rank " + rank + " crashed at step " + step + ": " + e;
    }
  }

  /** The sync layer of thread {@code name}: post20460 over the cache group's stages, singletons skipped. */
  private SyncLayer layer(String name) {
    List<List<Integer>> stages = cacheGroup.stages(topology, rank);
    ProcessGroup cp = stages.get(0).isEmpty() ? null : fabric.group(name + "_cp", stages.get(0), rank);
    ProcessGroup tp = fabric.group(name + "_" + cacheGroup.label(), stages.get(1), rank);
    return new SyncLayer(ProtocolVersion.POST20460, new SyncGroups(tp, cp, null, null, null, null));
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.lines().findFirst().orElse("").trim();
  }
}
