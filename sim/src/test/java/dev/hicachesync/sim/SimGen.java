package dev.hicachesync.sim;

import dev.hicachesync.sim.environment.Fault;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * QuickTheories generators for simulations: topologies, request scripts, environments and
 * policies. Every generator shrinks toward the small and the plain: fewer ranks, fewer and shorter turns,
 * no aborts, no read failures, seed 0 — so a shrunk counterexample is a minimal schedule.
 *
 * <p>Knobs: {@code -Dhicache.qt.maxWorld} (ranks per simulation, default 4; 8 for bigger topologies),
 * {@code -Dhicache.qt.maxTurns} (requests per script, default 24).
 */
final class SimGen {
  /** Largest world size generated. */
  static final int MAX_WORLD = Integer.getInteger("hicache.qt.maxWorld", 4);
  /** Longest request script generated. */
  static final int MAX_TURNS = Integer.getInteger("hicache.qt.maxTurns", 24);

  private SimGen() {}

  /** Every (dp, cp, tp, pp) in {1, 2}^4 (and 4 for cp or tp) whose world is at most {@link #MAX_WORLD}, smallest first. */
  static List<Topology> allTopologies(Function<Topology, Boolean> keep) {
    List<Topology> out = new ArrayList<>();
    int[] sizes = {1, 2, 4};
    for (int w = 1; w <= MAX_WORLD; w++) {
      for (int dp : sizes) {
        for (int cp : sizes) {
          for (int tp : sizes) {
            for (int pp : new int[] {1, 2}) {
              if (dp * cp * tp * pp == w && dp <= 2) {
                Topology t = Topology.of(dp, cp, tp, pp);
                if (keep.apply(t)) {
                  out.add(t);
                }
              }
            }
          }
        }
      }
    }
    return out;
  }

  /** Topologies whose sync domain has more than one rank (something to agree on). */
  static Gen<Topology> multiRankTopologies() {
    return Generate.pick(allTopologies(t -> t.cp() * t.tp() * t.pp() > 1));
  }

  /** The versions that must hold on {@code t}: post20460 and merged always, pre20460 without CP and PP. */
  static Gen<ProtocolVersion> fixedVersions(Topology t) {
    List<ProtocolVersion> v = new ArrayList<>(List.of(ProtocolVersion.MERGED, ProtocolVersion.POST20460));
    if (t.cp() == 1 && t.pp() == 1) {
      v.add(ProtocolVersion.PRE20460);
    }
    return Generate.pick(v);
  }

  /** One turn; aborts are rare and shrink away first. */
  static Gen<Turn> turns() {
    Gen<Integer> abort = Generate.frequency(
        org.quicktheories.api.Pair.of(6, Generate.constant(-1)),
        org.quicktheories.api.Pair.of(1, integers().between(0, 3)));
    Gen<int[]> shape = integers().between(0, 3).zip(integers().between(0, 3), integers().between(1, 56),
        integers().between(1, 24), (gap, session, user, output) -> new int[] {gap, session, user, output});
    return shape.zip(integers().between(1, 6), integers().between(0, 3), abort,
        (s, decode, eligible, ab) -> new Turn(s[0], s[1], s[2], s[3], decode, eligible, ab));
  }

  /** Workload parameters: system prompts, their length, sessions, the script. */
  record Work(int systemPrompts, int systemPromptPages, int sessions, List<Turn> turns) {}

  static Gen<Work> work() {
    return integers().between(1, 3).zip(integers().between(1, 8), integers().between(1, 4),
        lists().of(turns()).ofSizeBetween(1, MAX_TURNS), Work::new);
  }

  /**
   * The environment: the seed (per-rank latency skew, completion order, which reads fail), the read failure
   * rate, host pages, the running-batch size and the device pages beyond the longest prompt (pressure).
   */
  record Env(long seed, int readFailurePercent, int hostPages, int maxRunning, int deviceSlack) {}

  static Gen<Env> env(int minSlack, int maxSlack) {
    Gen<Integer> failures = Generate.pick(List.of(0, 1, 5, 20));
    Gen<long[]> a = longs().between(0, 1L << 40).zip(failures, (s, f) -> new long[] {s, f});
    return a.zip(integers().between(8, 160), integers().between(1, 6), integers().between(minSlack, maxSlack),
        (sf, host, run, slack) -> new Env(sf[0], (int) sf[1], host, run, slack));
  }

  /** One rank's generated schedule: latencies up to 6/8 ticks, a jitter pattern of up to 4 entries. */
  static Gen<RankSchedule> rankSchedule() {
    Gen<List<Integer>> jitter = lists().of(integers().between(0, 4)).ofSizeBetween(0, 4);
    return integers().between(0, 6).zip(integers().between(0, 8), jitter, integers().between(0, 6),
        integers().between(0, 4), RankSchedule::new);
  }

  /**
   * Environment schedules: half the time the simulator's seeded schedule (empty list), half the time one
   * generated {@link RankSchedule} per rank — which shrinks to a minimal per-rank completion order.
   */
  static Gen<List<RankSchedule>> schedules() {
    return Generate.frequency(
        org.quicktheories.api.Pair.of(1, Generate.constant(List.<RankSchedule>of())),
        org.quicktheories.api.Pair.of(1, lists().of(rankSchedule()).ofSize(MAX_WORLD)));
  }

  /** Policies: prefetch policy, write policy, storage on or off. */
  record Policies(PrefetchPolicy prefetch, WritePolicy write, StorageMode storage) {}

  static Gen<Policies> policies(List<PrefetchPolicy> prefetch, List<WritePolicy> write, List<StorageMode> storage) {
    return Generate.pick(prefetch).zip(Generate.pick(write), Generate.pick(storage), Policies::new);
  }

  static Gen<Policies> anyPolicies() {
    return policies(List.of(PrefetchPolicy.values()), List.of(WritePolicy.values()),
        List.of(StorageMode.MEMORY, StorageMode.FILE, StorageMode.OFF));
  }

  /**
   * Storage contents per rank: for each global rank, the leading pages of every system prompt its shard
   * holds before the run (used with file storage). Mostly equal across ranks, sometimes not; shrinks to 0.
   */
  static Gen<List<Integer>> preload() {
    Gen<Integer> pages = integers().between(0, 8);
    Gen<List<Integer>> equal = pages.map(p -> java.util.Collections.nCopies(MAX_WORLD, p));
    Gen<List<Integer>> skewed = lists().of(pages).ofSize(MAX_WORLD);
    return Generate.frequency(org.quicktheories.api.Pair.of(2, equal), org.quicktheories.api.Pair.of(1, skewed));
  }

  /** Assembles scenarios; device pages are the longest prompt plus the environment's slack. */
  static Gen<Scenario> scenarios(Gen<Topology> topologies, Function<Topology, Gen<ProtocolVersion>> versions,
      Gen<Policies> policies, Gen<Env> env, Gen<Work> work, Set<Fault> faults) {
    return scenarios(topologies, versions, policies, env, work, preload(), faults);
  }

  static Gen<Scenario> scenarios(Gen<Topology> topologies, Function<Topology, Gen<ProtocolVersion>> versions,
      Gen<Policies> policies, Gen<Env> env, Gen<Work> work, Gen<List<Integer>> preload, Set<Fault> faults) {
    return scenarios(topologies, versions, policies, env, work, preload, schedules(), faults);
  }

  @SuppressWarnings("unchecked")
  static Gen<Scenario> scenarios(Gen<Topology> topologies, Function<Topology, Gen<ProtocolVersion>> versions,
      Gen<Policies> policies, Gen<Env> env, Gen<Work> work, Gen<List<Integer>> preload,
      Gen<List<RankSchedule>> schedules, Set<Fault> faults) {
    Gen<Object[]> tv = topologies.flatMap(t -> versions.apply(t).map(v -> new Object[] {t, v}));
    Gen<Object[]> tvp = tv.zip(preload, schedules, (a, pre, sch) -> new Object[] {a[0], a[1], pre, sch});
    return tvp.zip(policies, env, work, (t, p, e, w) -> {
      int maxPages = (Scenario.maxPromptTokens(w.systemPromptPages(), w.sessions(), w.turns())
          + Scenario.PAGE_SIZE - 1) / Scenario.PAGE_SIZE;
      return new Scenario((Topology) t[0], (ProtocolVersion) t[1], p.prefetch(), p.write(), p.storage(),
          e.seed(), e.readFailurePercent(), maxPages + e.deviceSlack(), e.hostPages(), e.maxRunning(),
          w.systemPrompts(), w.systemPromptPages(), w.sessions(), w.turns(),
          faults.isEmpty() ? EnumSet.noneOf(Fault.class) : EnumSet.copyOf(faults),
          p.storage() == StorageMode.FILE ? preloadFor((Topology) t[0], (List<Integer>) t[2]) : List.of(),
          ((List<RankSchedule>) t[3]).isEmpty() ? List.of()
              : List.copyOf(((List<RankSchedule>) t[3]).subList(0, ((Topology) t[0]).worldSize())));
    });
  }

  private static List<Integer> preloadFor(Topology t, List<Integer> pre) {
    return List.copyOf(pre.subList(0, Math.min(pre.size(), t.worldSize())));
  }

  /** Scenarios of the fixed protocol: any multi-rank topology, fixed versions, any policies. */
  static Gen<Scenario> fixedProtocol() {
    return scenarios(multiRankTopologies(), SimGen::fixedVersions, anyPolicies(), env(2, 64), work(),
        Set.of());
  }
}
