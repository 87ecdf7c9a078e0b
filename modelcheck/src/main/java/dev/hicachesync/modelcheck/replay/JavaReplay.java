package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.sim.datapath.DataOptions;
import dev.hicachesync.sim.Divergence;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimulationRun;
import dev.hicachesync.sim.Simulator;
import dev.hicachesync.sim.spec.SpecShaped;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Replays a {@code HiCacheSync.tla} counterexample on the implementation and compares both sides.
 *
 * <p>The run is the simulator's spec-shaped one ({@code SimConfig.specShaped}: the real controller, sync
 * layer and collectives under the spec's scheduler), opened step by step ({@code Simulator.open}); the
 * request stream is the model's {@code Requests}, the bug switches become the simulator's faults, and
 * {@link ScheduledCopies} completes each rank's copies in the steps the counterexample completes them. At
 * every RECV where the ranks are parked, each rank's free device and host pages and ack queue lengths are
 * compared with the spec's; the first difference is where code and spec part ways. A deadlock of the spec is
 * the implementation's {@code CollectiveMatching} (a rank that skips a collective fails it, by mismatch or
 * the fabric's timeout, instead of hanging).
 *
 * <p>Implementation calls relied on (for the lead, while {@code sim} is reworked): {@code Simulator.open},
 * {@code SimulationRun.advance/view/verdict/close}, {@code SimConfig.Builder.specShaped/timing/faults},
 * {@code Timing}, {@code Fault.SKIP_IDLE_WRITE_CHECK}, {@code Fault.UNSYNCED_LOADING_CHECK}.
 */
public final class JavaReplay {

  /** Bug switches of the spec and the simulator's fault of the same code path. */
  private static final Map<String, Fault> FAULTS = Map.of("B3", Fault.SKIP_IDLE_WRITE_CHECK, "B5",
      Fault.UNSYNCED_LOADING_CHECK);

  /** Why the other switches cannot be replayed: the seam the implementation lacks. */
  private static final Map<String, String> NO_SEAM = Map.of(
      "B10", "B10's rank-local batch-full exit (spec action BatchFills) is a fault of the one scheduler loop"
          + " (RankEngine, spec-shaped runs included), but its condition comes from the seeded Timing, which the"
          + " replay's copy schedule does not set",
      "B14", "B14 needs the sidecar pool (spec action StorageReadsSidecarPage), which the implementation does not have",
      "B14sum", "B14sum needs the sidecar pool (spec action StorageReadsSidecarPage), which the implementation does not have",
      "B15", "B15 is the sidecar wait of best_effort (spec action StorageReadsSidecarPage): no sidecar pool",
      "P1", "P1 is the pipelined version, which the implementation does not have");

  /** The environment knobs and hidden assumptions: what each changes in the spec, which the driver cannot set. */
  private static final Map<String, String> KNOBS = Map.of(
      "batch_full", "knob batch_full (spec action BatchFills: a rank-local batch-full condition) has no switch in the"
          + " spec-shaped driver",
      "sidecar", "knob sidecar (spec action StorageReadsSidecarPage): the implementation has no sidecar pool",
      "uneven_capacity", "knob uneven_capacity (rank 0's host pool one page larger): SimConfig has one host capacity"
          + " for every rank",
      "local_clock", "knob local_clock (spec action ClockSkews: LRU order from a per-rank clock): the spec-shaped"
          + " driver evicts smallest key first, with no clock to skew",
      "shared_group", "knob shared_group (the prefetch thread's S7 on the scheduler's groups): needs StorageOn",
      "local_payload", "knob local_payload (S3's vector length from the local queues): the sync layer's payload sizes"
          + " are fixed, no switch");

  /** Collective timeout of a replay: a rank that skips a collective is reported after this. */
  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  private JavaReplay() {}

  /**
   * Replays {@code trace} (TLC's counterexample of the model {@code schedule}, verdict {@code verdict}, with
   * constants {@code scheduleConstants}) on the implementation configured as {@code model} ({@code
   * constants}): the same model for a bug, its fixed twin to show the schedule runs clean there.
   */
  public static ReplayReport run(String model, ModelConstants constants, String schedule, ErrorTrace trace,
      Verdict verdict) {
    boolean twin = !model.equals(schedule);
    int ranks = constants.dp() * constants.cp() * constants.tp() * constants.pp();
    SpecSchedule s = SpecSchedule.of(trace, ranks);
    String specSide = verdict + " at state " + trace.length() + ", step " + s.lastStep();
    List<String> why = unreplayable(constants, s);
    if (!why.isEmpty()) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.NOT_REPLAYABLE, specSide, "not run", List.of(),
          String.join("; ", why));
    }
    SimConfig cfg = SimConfig.builder()
        .topology(Topology.of(constants.dp(), constants.cp(), constants.tp(), constants.pp()))
        .version(ProtocolVersion.parse(constants.version()))
        .storage(StorageMode.OFF)
        .specShaped(new SpecShaped(constants.requests(), constants.pagesPerKey()))
        .devicePages(constants.deviceCap())
        .hostPages(constants.hostCap())
        .faults(faults(constants.bugs()))
        .timing(new ScheduledCopies(s))
        .data(DataOptions.OFF)
        .collectiveTimeout(TIMEOUT)
        .steps(Math.max(s.lastStep() + 8L, 3L * constants.requests().size() + 8))
        .seed(0)
        .build();
    List<String> lines = new ArrayList<>(schedule(s));
    String partWays = "";
    SimulationRun.Verdict v;
    try (SimulationRun run = Simulator.open(cfg)) {
      v = run.verdict();
      int compared = -1;
      for (int points = 0; points < 10_000 && v.ok() && !v.ended(); points++) {
        int step = atRecv(run);
        if (step > compared && step < s.observed().size()) {
          compared = step;
          partWays = compare(step, s.observed().get(step), run, lines);
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
      return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines, partWays);
    }
    if (v.crash() != null) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines,
          "the implementation crashed: " + v.crash());
    }
    return judge(model, schedule, specSide, implSide, lines, twin, verdict, d, s.lastStep());
  }

  /** One line for the implementation's side: the invariants it broke, where and between which ranks. */
  static String describe(Divergence d) {
    return String.join(", ", d.invariants().stream().map(Enum::name).toList()) + " at step " + d.step() + ", "
        + d.point() + (d.rankB() >= 0 ? ", ranks " + d.rankA() + " and " + d.rankB() : ", rank " + d.rankA());
  }

  /**
   * The replay's outcome: a fixed twin ({@code twin}) must run clean; a bug model's replay must break the
   * property the spec's counterexample breaks ({@code verdict}; a deadlock is CollectiveMatching) at the
   * counterexample's last step ({@code lastStep}).
   */
  static ReplayReport judge(String model, String schedule, String specSide, String implSide, List<String> lines,
      boolean twin, Verdict verdict, Divergence d, int lastStep) {
    if (twin) {
      return d == null
          ? new ReplayReport(model, schedule, ReplayReport.Outcome.CLEAN, specSide, implSide, lines, "")
          : new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines,
              "the fixed version still breaks " + d.invariant() + " at step " + d.step());
    }
    String expected = verdict.kind() == Verdict.Kind.DEADLOCK ? "CollectiveMatching" : verdict.property();
    if (d == null) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines,
          "the implementation does not break " + expected);
    }
    if (!d.invariants().stream().map(Enum::name).toList().contains(expected) || d.step() != lastStep) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines,
          "the spec breaks " + expected + " at step " + lastStep + ", the implementation " + d.invariants()
              + " at step " + d.step());
    }
    return new ReplayReport(model, schedule, ReplayReport.Outcome.SAME_VIOLATION, specSide, implSide, lines, "");
  }

  /** The reasons the implementation cannot run this schedule, each naming the action or constant. */
  static List<String> unreplayable(ModelConstants k, SpecSchedule s) {
    List<String> why = unreplayable(k);
    for (String action : s.undriven()) {
      why.add("action " + action + " has no seam in the replay");
    }
    return why;
  }

  /** The reasons the implementation cannot run a model with constants {@code k}, whatever the trace. */
  public static List<String> unreplayable(ModelConstants k) {
    List<String> why = new ArrayList<>();
    if (k.dp() != 1 || k.pp() != 1) {
      why.add("spec-shaped replays cover one sync domain of one stage (DP 1, PP 1), not DP " + k.dp() + ", PP " + k.pp());
    }
    if (k.storageOn()) {
      why.add("StorageOn: the prefetch thread's actions (PfStorageHitQuery, PfPrefetchThreadStep, StorageReadsPage, TimeoutFires,"
          + " StorageBackupCompletes) have no seam in the replay yet");
    }
    for (String bug : k.bugs()) {
      if (!FAULTS.containsKey(bug)) {
        why.add(NO_SEAM.getOrDefault(bug, bug + " has no fault switch in the implementation"));
      }
    }
    for (String knob : k.knobs()) {
      why.add(KNOBS.getOrDefault(knob, "knob " + knob + " has no switch in the spec-shaped driver"));
    }
    if (k.version().equals("pipelined")) {
      why.add("the pipelined version is not in the implementation");
    }
    return why;
  }

  /** The copies the schedule completes, one line per rank and kind: what the replay makes the code do. */
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
    }
    return out;
  }

  private static Set<Fault> faults(Set<String> bugs) {
    Set<Fault> f = EnumSet.noneOf(Fault.class);
    bugs.forEach(b -> f.add(FAULTS.get(b)));
    return f;
  }

  /** The step every live rank is parked at RECV of, or -1 when they are elsewhere. */
  private static int atRecv(SimulationRun run) {
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
  private static String compare(int step, List<SpecSchedule.Observed> spec, SimulationRun run, List<String> lines) {
    String first = "";
    for (int r = 0; r < spec.size(); r++) {
      SimulationRun.RankView view = run.view(r);
      SpecSchedule.Observed impl = new SpecSchedule.Observed(view.freeDevicePages(), view.freeHostPages(),
          view.queues().get(0), view.queues().get(1));
      boolean same = impl.equals(spec.get(r));
      lines.add("step " + step + " RECV rank " + r + ": spec " + spec.get(r) + " | impl " + impl + (same ? "" : "  <- differs"));
      if (!same && first.isEmpty()) {
        first = "at step " + step + "'s RECV rank " + r + " shows " + impl + " in the implementation, " + spec.get(r)
            + " in the spec";
      }
    }
    return first;
  }
}
