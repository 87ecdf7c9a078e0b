package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.sim.datapath.DataOptions;
import dev.hicachesync.sim.Divergence;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimulationRun;
import dev.hicachesync.sim.Simulator;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import dev.hicachesync.tree.TreeNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Replays a {@code HiCacheSync.tla} counterexample on the implementation and compares both sides.
 *
 * <p>The run is the simulator's spec-shaped one ({@code SimConfig.specShaped}: the real controller, sync
 * layer and collectives under the spec's scheduler), opened step by step ({@code Simulator.open}); the
 * request stream is the model's {@code Requests}, the bug switches and knobs become the simulator's faults
 * ({@link #FAULTS}, {@link #KNOB_FAULTS}), and {@link ScheduledEnvironment} makes every rank-local choice the
 * counterexample makes (copies, the prefetch thread's passes and storage hits, reads, backups, batch full). At
 * every RECV where the ranks are parked, each rank's pools, ack queues, waiting and running request and the
 * residency of every key are compared with the spec's; the first difference is where code and spec part
 * ways. The violation is compared by name: TLC reports the first of the cfg's invariants that fails, so the
 * implementation's first, in the cfg's order, of the invariants it breaks must be that one. A deadlock of
 * the spec is the implementation's {@code CollectiveMatching} (a rank that skips a collective fails it, by
 * mismatch or the fabric's timeout, instead of hanging), with no other invariant of the cfg broken, at the
 * deadlock's step or the next (a rank that skipped a collective may already be posted at its next step's first
 * call).
 */
public final class JavaReplay {

  /** Bug switches of the spec and the simulator's fault of the same code path. */
  private static final Map<String, Fault> FAULTS = Map.of("B3", Fault.SKIP_IDLE_WRITE_CHECK, "B5",
      Fault.UNSYNCED_LOADING_CHECK, "B10", Fault.EARLY_ADMISSION_EXIT, "B14", Fault.SIDECAR_MIN_KV_ONLY, "B14sum",
      Fault.SIDECAR_SUM_COUNT, "B15", Fault.SIDECAR_EARLY_RETURN, "P1", Fault.PIPELINED_COUNTS_BEFORE_CONSUMING);

  /** Knobs of the spec and the simulator's fault of the same code path (pools: see {@link #poolFaults}). */
  private static final Map<String, Fault> KNOB_FAULTS = Map.of("shared_group", Fault.SHARED_PREFETCH_GROUPS,
      "local_payload", Fault.LOCAL_S3_PAYLOAD, "local_clock", Fault.LOCAL_LRU_CLOCK, "local_order",
      Fault.LOCAL_QUEUE_ORDER, "release_whole", Fault.RELEASE_WHOLE, "abort_unlock_load", Fault.ABORT_UNLOCKS_LOAD,
      "sidecar", Fault.SIDECAR_POOL, "local_extra_pools", Fault.LOCAL_EXTRA_POOLS,
      "pf_thread_dies", Fault.PREFETCH_THREAD_DIES, "async_rank_off", Fault.ASYNC_RANK_OFF);

  /** Knobs the replay drives through the schedule alone (the environment's choice, no switch). */
  private static final Set<String> SCHEDULED_KNOBS = Set.of("batch_full", "uneven_capacity", "local_pool_sizes",
      "abort", "abort_running");

  /** Bug switches that are the environment's, driven by the schedule alone (WTO: each rank's abort its own). */
  private static final Set<String> SCHEDULED_BUGS = Set.of("WTO");

  /** Why the other switches cannot be replayed: the seam the implementation lacks (none lacks one today). */
  private static final Map<String, String> NO_SEAM = Map.of();

  /** The knobs without a switch: what each changes in the spec, which the implementation lacks (none today). */
  private static final Map<String, String> KNOBS = Map.of();

  /** Collective timeout of a replay: a rank that skips a collective is reported after this. */
  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  private JavaReplay() {}

  /**
   * Replays {@code trace} (TLC's counterexample of the model {@code schedule}, verdict {@code verdict}) on the
   * implementation configured as {@code model} ({@code constants}): the same model for a bug, its fixed twin
   * to show the schedule runs clean there. {@code invariants} are the schedule cfg's, in its order.
   */
  public static ReplayReport run(String model, ModelConstants constants, String schedule, ErrorTrace trace,
      Verdict verdict, List<String> invariants) {
    boolean twin = !model.equals(schedule);
    int ranks = constants.dp() * constants.cp() * constants.tp() * constants.pp();
    SpecSchedule s = SpecSchedule.of(trace, ranks, constants.requests());
    String specSide = verdict + " at state " + trace.length() + ", step " + s.lastStep();
    List<String> why = unreplayable(constants, s);
    if (!why.isEmpty()) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.NOT_REPLAYABLE, specSide, "not run", List.of(),
          String.join("; ", why));
    }
    Set<Fault> faults = faults(constants);
    SimConfig cfg = SimConfig.builder()
        .topology(Topology.of(constants.dp(), constants.cp(), constants.tp(), constants.pp()))
        .version(ProtocolVersion.parse(constants.version()))
        .prefetchPolicy(PrefetchPolicy.parse(constants.policy()))
        .storage(constants.storageOn() ? StorageMode.MEMORY : StorageMode.OFF)
        .specShaped(MultiPageKeys.specShaped(constants))
        .devicePages(constants.deviceCap())
        .hostPages(constants.hostCaps().stream().mapToInt(Integer::intValue).min().orElse(constants.hostCap()))
        .faults(faults)
        .timing(new ScheduledEnvironment(s, constants.bugs().contains("WTO")))
        .data(DataOptions.OFF)
        .collectiveTimeout(TIMEOUT)
        .steps(Math.max(s.lastStep() + 8L, 3L * constants.requests().size() + 8))
        .seed(0)
        .build();
    List<String> lines = new ArrayList<>(schedule(s));
    lines.addAll(StuckThreadJudgement.describe(s.deaths(), ranks));
    if (s.abortsDifferAcrossRanks() && !constants.bugs().contains("WTO")) {
      lines.add("aborts: the domain's first rank's decision on every rank (the fix decides once and broadcasts)");
    }
    if (!faults.isEmpty()) {
      lines.add(0, "faults: " + String.join(", ", faults.stream().map(f -> f.name().toLowerCase(Locale.ROOT)).toList()));
    }
    String partWays = "";
    SimulationRun.Verdict v;
    try (SimulationRun run = Simulator.open(cfg)) {
      v = run.verdict();
      int compared = -1;
      for (int points = 0; points < 10_000 && v.ok() && !v.ended(); points++) {
        int step = atRecv(run);
        if (step > compared && step < s.observed().size()) {
          compared = step;
          partWays = compare(step, s.observed().get(step), run, constants, lines);
          if (!partWays.isEmpty()) {
            break;
          }
        }
        v = run.advance();
      }
    }
    Divergence d = v.divergence();
    String implSide = d != null ? describe(d)
        : v.crash() != null ? "crashed: " + v.crash() : "no violation (" + v.points() + " lockstep points)";
    if (!partWays.isEmpty()) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines,
          IMPL_WRONG + "on the spec's schedule its state " + partWays);
    }
    if (v.crash() != null) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines,
          IMPL_WRONG + "it crashed: " + v.crash());
    }
    if (!twin && StuckThreadJudgement.applies(verdict, s.deaths())) { // a thread that waits for ever: a timeout
      return StuckThreadJudgement.judge(model, schedule, specSide, implSide, lines, verdict, d,
          StuckThreadJudgement.stuckCall(s, trace, verdict), invariants);
    }
    return judge(model, schedule, specSide, implSide, lines, twin, verdict, d, s.lastStep(), invariants);
  }

  /** One line for the implementation's side: the invariants it broke, where and between which ranks. */
  static String describe(Divergence d) {
    return String.join(", ", d.invariants().stream().map(Enum::name).toList()) + " at step " + d.step() + ", "
        + d.point() + (d.rankB() >= 0 ? ", ranks " + d.rankA() + " and " + d.rankB() : ", rank " + d.rankA());
  }

  /**
   * A disagreement's first words: which side the replay holds wrong. The implementation, where it departs from
   * the spec on the spec's own schedule (another state at a RECV, another invariant or step, a crash, a fix that
   * does not fix): the spec is the model-checked reference it follows step by step. The spec, where the
   * implementation follows it to the last RECV and still does not break the invariant: the spec then allows a
   * behaviour the code does not have.
   */
  static final String IMPL_WRONG = "the implementation is wrong: ";
  static final String SPEC_WRONG = "the spec is wrong: ";

  /**
   * The replay's outcome: a fixed twin ({@code twin}) must run clean; a bug model's replay must break, at the
   * counterexample's last step ({@code lastStep}), the property the spec's counterexample breaks ({@code
   * verdict}): of the invariants the implementation breaks, the first in the cfg's order ({@code invariants},
   * the order TLC checks them in) must be the spec's; for a deadlock, CollectiveMatching and no other of the
   * cfg's.
   */
  static ReplayReport judge(String model, String schedule, String specSide, String implSide, List<String> lines,
      boolean twin, Verdict verdict, Divergence d, int lastStep, List<String> invariants) {
    if (twin) {
      return d == null
          ? new ReplayReport(model, schedule, ReplayReport.Outcome.CLEAN, specSide, implSide, lines, "")
          : new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines,
              IMPL_WRONG + "the fixed version still breaks " + d.invariant() + " at step " + d.step()
                  + " on the bug's schedule");
    }
    boolean deadlock = verdict.kind() == Verdict.Kind.DEADLOCK;
    String expected = deadlock ? "CollectiveMatching" : verdict.property();
    if (d == null) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines,
          SPEC_WRONG + "the implementation does not break " + expected + " on the spec's schedule, with the same"
              + " state at every RECV: the spec's counterexample is one the implementation does not have (unless"
              + " the replay leaves a choice the implementation makes undriven)");
    }
    List<String> broken = d.invariants().stream().map(Enum::name).toList();
    List<String> checked = broken.stream().filter(invariants::contains)
        .sorted(java.util.Comparator.comparingInt(invariants::indexOf)).toList();
    String first = checked.isEmpty() ? "" : checked.get(0);
    boolean same = deadlock ? checked.equals(List.of(expected)) : first.equals(expected);
    // A deadlock's ranks wait at their next calls: one that skipped a collective may already be posted at its
    // next step's first call (the spec counts a step from RECV's completion, the implementation from its start).
    boolean sameStep = d.step() == lastStep || deadlock && d.step() == lastStep + 1;
    if (!same || !sameStep) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines,
          IMPL_WRONG + "the spec breaks " + (deadlock ? "nothing but deadlocks (CollectiveMatching)" : expected
              + " (the first of its cfg's invariants to fail)") + " at step " + lastStep + ", the implementation "
              + (checked.isEmpty() ? broken + ", none of them checked by the cfg," : checked
                  + (deadlock ? "" : " (first in the cfg's order: " + first + ")")) + " at step " + d.step());
    }
    return new ReplayReport(model, schedule, ReplayReport.Outcome.SAME_VIOLATION, specSide, implSide, lines, "");
  }

  /** The reasons the implementation cannot run this schedule, each naming the action or constant. */
  static List<String> unreplayable(ModelConstants k, SpecSchedule s) {
    List<String> why = unreplayable(k);
    why.addAll(MultiPageKeys.partialPrefetches(k, s));
    for (String action : s.undriven()) {
      why.add("action " + action + " has no seam in the replay");
    }
    why.addAll(s.unmapped());
    return why;
  }

  /** The reasons the implementation cannot run a model with constants {@code k}, whatever the trace. */
  public static List<String> unreplayable(ModelConstants k) {
    List<String> why = new ArrayList<>();
    if (k.dp() != 1 || k.pp() != 1) {
      why.add("spec-shaped replays cover one sync domain of one stage (DP 1, PP 1), not DP " + k.dp() + ", PP " + k.pp());
    }
    for (String bug : k.bugs()) {
      if (!FAULTS.containsKey(bug) && !SCHEDULED_BUGS.contains(bug)) {
        why.add(NO_SEAM.getOrDefault(bug, bug + " has no fault switch in the implementation"));
      }
    }
    for (String knob : k.knobs()) {
      if (!KNOB_FAULTS.containsKey(knob) && !SCHEDULED_KNOBS.contains(knob)) {
        why.add(KNOBS.getOrDefault(knob, "knob " + knob + " has no switch in the spec-shaped driver"));
      }
    }
    if (poolFaults(k) == null) {
      why.add("pools " + k.deviceCaps() + " (device) and " + k.hostCaps() + " (host) per rank: the simulator sizes"
          + " rank 0's host pool one page larger at most (fault larger_host_pool_on_rank0), every other pool alike");
    }
    return why;
  }

  /** The faults of the pools: none when equal, rank 0's host pool one page larger, or null when neither. */
  static Set<Fault> poolFaults(ModelConstants k) {
    boolean devEqual = k.deviceCaps().stream().distinct().count() <= 1;
    List<Integer> host = k.hostCaps();
    boolean hostEqual = host.stream().distinct().count() <= 1;
    if (devEqual && hostEqual) {
      return Set.of();
    }
    boolean rank0Larger = devEqual && host.size() > 1 && host.subList(1, host.size()).stream().distinct().count() == 1
        && host.get(0) == host.get(1) + 1;
    return rank0Larger ? Set.of(Fault.LARGER_HOST_POOL_ON_RANK0) : null;
  }

  /** The copies and storage choices the schedule makes, one line per rank and kind: what the replay makes the code do. */
  static List<String> schedule(SpecSchedule s) {
    List<String> out = new ArrayList<>();
    for (int r = 0; r < s.ranks(); r++) {
      for (String kind : List.of("write", "load")) {
        List<SpecSchedule.Copy> copies = kind.equals("write") ? s.writes(r) : s.loads(r);
        if (copies.isEmpty()) {
          continue;
        }
        StringBuilder b = new StringBuilder("schedule rank " + r + " " + kind + " copies:");
        for (SpecSchedule.Copy c : copies) {
          b.append(" [issued in step ").append(c.issued()).append(", ")
              .append(c.seenDone() < 0 ? "not done in the trace" : "done from step " + c.seenDone()).append(']');
        }
        out.add(b.toString());
      }
      if (!s.hits(r).isEmpty()) {
        out.add("schedule rank " + r + " storage hits at S7 (leading pages, in order): " + s.hits(r));
      }
      if (!s.reads(r).isEmpty()) {
        out.add("schedule rank " + r + " page reads: " + String.join(" ", s.reads(r).stream()
            .map(x -> "[" + (x.fails() ? "fails" : "lands") + " from step " + x.lands() + "]").toList()));
      }
      if (!s.sidecarReads(r).isEmpty()) {
        out.add("schedule rank " + r + " sidecar page reads: " + String.join(" ", s.sidecarReads(r).stream()
            .map(x -> "[" + (x.fails() ? "fails" : "lands") + " from step " + x.lands() + "]").toList()));
      }
      if (!s.backups(r).isEmpty()) {
        out.add("schedule rank " + r + " storage backups acked from steps " + s.backups(r));
      }
      for (int step = 0; step <= s.lastStep() + 1; step++) {
        if (!s.batchFull(r, step).equals("no")) {
          out.add("schedule rank " + r + " batch full at step " + step + "'s admission: " + s.batchFull(r, step));
        }
        if (s.aborted(r, step) > 0) {
          out.add("schedule rank " + r + " aborts waiting request " + s.aborted(r, step) + " at step " + step);
        }
        if (s.abortedRunning(r, step) > 0) {
          out.add("schedule rank " + r + " aborts running request " + s.abortedRunning(r, step) + " at step " + step);
        }
        if (s.clockSkewed(r, step) && !s.clockSkewed(r, step - 1)) {
          out.add("schedule rank " + r + " LRU clock skewed from step " + step);
        }
        if (s.queueOrderSkewed(r, step) && !s.queueOrderSkewed(r, step - 1)) {
          out.add("schedule rank " + r + " waiting queue newest first from step " + step);
        }
        if (!s.passRuns(r, step)) {
          out.add("schedule rank " + r + " prefetch thread idle at the start of step " + step);
        }
      }
    }
    return out;
  }

  private static Set<Fault> faults(ModelConstants k) {
    Set<Fault> f = EnumSet.noneOf(Fault.class);
    k.bugs().stream().filter(FAULTS::containsKey).forEach(b -> f.add(FAULTS.get(b)));
    k.knobs().stream().filter(KNOB_FAULTS::containsKey).forEach(n -> f.add(KNOB_FAULTS.get(n)));
    f.addAll(poolFaults(k));
    return f;
  }

  /** The step every live rank is parked at RECV of, or -1 when they are elsewhere. */
  static int atRecv(SimulationRun run) {
    long step = -1;
    for (int r = 0; r < run.ranks(); r++) {
      SimulationRun.RankView view = run.view(r);
      if (view.ended()) {
        continue;
      }
      if (!view.point().equals("sync point RECV") || (step >= 0 && view.step() != step)) {
        return -1;
      }
      step = view.step();
    }
    return (int) step;
  }

  /** One line per rank; the first value that differs, or "". */
  private static String compare(int step, List<SpecSchedule.Observed> spec, SimulationRun run, ModelConstants k,
      List<String> lines) {
    String first = "";
    for (int r = 0; r < spec.size(); r++) {
      SpecSchedule.Observed impl = observed(run, r, k);
      boolean same = impl.equals(spec.get(r));
      lines.add("step " + step + " RECV rank " + r + ": spec " + spec.get(r) + " | impl " + impl + (same ? "" : "  <- differs"));
      if (!same && first.isEmpty()) {
        first = "at step " + step + "'s RECV rank " + r + " shows " + impl + " in the implementation, " + spec.get(r)
            + " in the spec";
      }
    }
    return first;
  }

  /** What rank {@code r} of the implementation shows where it is parked, as {@link SpecSchedule.Observed} has it. */
  static SpecSchedule.Observed observed(SimulationRun run, int r, ModelConstants k) {
    SimulationRun.RankView view = run.view(r);
    SimulationRun.Replica replica = run.replica(r);
    List<String> keys = new ArrayList<>();
    for (int key : k.requests().stream().distinct().sorted().toList()) {
      int dev = 0;
      int host = 0;
      for (TreeNode n : replica.tree().nodesById()) {
        if (n.tokens() > 0 && n.token(0) == key) {
          dev += n.onDevice() ? n.devicePages().length : 0;
          host += n.onHost() ? n.hostPages().length : 0;
        }
      }
      keys.add(dev == 0 || dev == k.pagesPerKey() ? SpecSchedule.residency(key, dev > 0, host)
          : "k" + key + ":dev" + dev + "/" + k.pagesPerKey() + (host > 0 ? "+h" + host : ""));
    }
    return new SpecSchedule.Observed(view.freeDevicePages(), view.freeHostPages(), view.queues().get(0),
        view.queues().get(1), index(replica.waiting()), index(replica.running()), keys);
  }

  /** The spec's request index of a spec-shaped run's request id ({@code req3}: 3), 0 for none. */
  private static long index(String rid) {
    return rid == null ? 0 : Long.parseLong(rid.substring("req".length()));
  }
}
