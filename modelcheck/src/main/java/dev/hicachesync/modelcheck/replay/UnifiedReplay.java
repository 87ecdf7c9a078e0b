package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.sim.datapath.DataOptions;
import dev.hicachesync.sim.Divergence;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
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
 * Replays a {@code HiCacheUnified.tla} counterexample on the Java {@code unified} controller and compares both
 * sides, as {@link JavaReplay} does for {@code HiCacheSync.tla}.
 *
 * <p>The run is the spec-shaped {@code unified} one ({@code LoopShape.specUnified}: requests 1..NReq, one page
 * each, write_back, pools that never fill, data off) with the model's policy, storage and bug switches; the
 * counterexample's rank-local environment choices become the run's seams. Driven today: the runtime attach
 * (Knob {@code attach}: {@code EnvAttachFails(r)} = rank r's backend fails to initialise at the attach the
 * first RECV handles; Bug {@code ATT} = each rank keeps its own outcome, fault {@code attach_fails_locally};
 * fixed = the outcome agreed, fault {@code attach_agreed}). Every other action of the spec's environment and
 * storage threads (a rank's storage hit {@code PfQuery(r, h)}, read {@code PfRead(r, k)}, clock, batch-full,
 * backup raise, load event) has no seam here yet; a counterexample that takes one is not replayable, by name.
 * A deadlock of the spec is the implementation's {@code CollectiveMatching} (a rank that skips a collective
 * fails it by mismatch or the fabric's timeout).
 */
public final class UnifiedReplay {

  /** The MC module of the unified models. */
  public static final String MODULE = "MCHiCacheUnified";

  /** Bug switches the schedule drives: each is the environment's choice on the same code path. */
  private static final Set<String> SCHEDULED_BUGS = Set.of("ATT", "WTO", "B10");

  /** Knobs the schedule drives (their environment actions have seams, {@link UnifiedEnvironment}). */
  private static final Set<String> SCHEDULED_KNOBS = Set.of("attach", "wait_timeout", "batch_full");

  /** Knobs of the spec and the simulator's fault of the same code path. */
  private static final Map<String, Fault> KNOB_FAULTS = Map.of("pf_shared_group", Fault.SHARED_PREFETCH_GROUPS,
      "io_term", Fault.LOCAL_TERMINATE, "sync_shared_group", Fault.SHARED_COMPLETION_GROUPS);

  /** Why each bug switch or knob other than the attach has no seam here (the Java fault it would need). */
  private static final Map<String, String> NO_SEAM = Map.of(
      "PDLB", "PDLB (fault pd_decode_load_readiness) needs a load-back whose GPU event one rank sees done"
          + " (EnvLoadDone); the spec-shaped unified run has no load-back schedule",
      "B38428", "B38428 (fault backup_thread_dies) needs a backup (Knob backup_raise), which the spec-shaped"
          + " unified run (write_back, nothing written) never starts");

  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  private UnifiedReplay() {}

  /** The reasons the implementation cannot run a unified model with constants {@code k}, whatever the trace. */
  public static List<String> unreplayable(ModelConstants k) {
    List<String> why = new ArrayList<>();
    if (k.dp() != 1 || k.pp() != 1) {
      why.add("unified replays cover one sync domain of one stage (DP 1, PP 1), not DP " + k.dp() + ", PP " + k.pp());
    }
    for (String bug : k.bugs()) {
      if (!SCHEDULED_BUGS.contains(bug)) {
        why.add(NO_SEAM.getOrDefault(bug, bug + " has no fault switch in the unified replay"));
      }
    }
    for (String knob : k.knobs()) {
      if (!SCHEDULED_KNOBS.contains(knob) && !KNOB_FAULTS.containsKey(knob)) {
        why.add("knob " + knob + " has no seam in the unified replay (its environment action is rank-local and"
            + " the spec-shaped unified run does not take it from the counterexample)");
      }
    }
    return why;
  }

  /**
   * Replays {@code trace} (the counterexample of {@code schedule}, verdict {@code verdict}) on the
   * implementation configured as {@code model} ({@code constants}); {@code invariants} are the schedule cfg's,
   * in its order.
   */
  public static ReplayReport run(String model, ModelConstants constants, String schedule, ErrorTrace trace,
      Verdict verdict, List<String> invariants) {
    boolean twin = !model.equals(schedule);
    int ranks = constants.cp() * constants.tp();
    UnifiedSchedule s = UnifiedSchedule.of(trace, ranks);
    String specSide = verdict + " at state " + trace.length() + ", step " + s.lastStep();
    List<String> why = unreplayable(constants);
    s.undriven().forEach(a -> why.add("action " + a + " has no seam in the unified replay"));
    why.addAll(s.unmapped());
    if (!why.isEmpty()) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.NOT_REPLAYABLE, specSide, "not run", List.of(),
          String.join("; ", why));
    }
    boolean attach = constants.knobs().contains("attach");
    Set<Fault> faults = EnumSet.noneOf(Fault.class);
    if (attach) {
      faults.add(Fault.ATTACH_FAILS_LOCALLY);
      if (!constants.bugs().contains("ATT")) {
        faults.add(Fault.ATTACH_AGREED);
      }
    }
    constants.knobs().stream().filter(KNOB_FAULTS::containsKey).forEach(k -> faults.add(KNOB_FAULTS.get(k)));
    if (constants.bugs().contains("B10")) {
      faults.add(Fault.EARLY_ADMISSION_EXIT);
    }
    int n = constants.requests().size();
    SimConfig cfg = SimConfig.builder()
        .topology(Topology.of(1, constants.cp(), constants.tp(), 1))
        .version(ProtocolVersion.UNIFIED)
        // the attach needs a backend to attach; StorageOn FALSE without it is storage off
        .storage(constants.storageOn() || attach ? StorageMode.MEMORY : StorageMode.OFF)
        .prefetchPolicy(PrefetchPolicy.parse(constants.policy()))
        .writePolicy(WritePolicy.WRITE_BACK)
        .data(DataOptions.OFF)
        .specShaped(SpecShaped.distinct(n).attachFailingOn(s.attachFails()))
        .devicePages(n)
        .hostPages(Math.max(n, constants.hostCap()))
        .faults(faults)
        .timing(new UnifiedEnvironment(s, constants.bugs().contains("WTO")))
        .collectiveTimeout(TIMEOUT)
        .steps(s.lastStep() + 5L * n + 4)
        .seed(0)
        .build();
    List<String> lines = new ArrayList<>();
    if (attach) {
      lines.add("schedule: the runtime attach at step 0 fails on rank(s) " + s.attachFails()
          + (s.attachFails().isEmpty() ? " (none)" : "") + "; each rank keeps " + (faults.contains(Fault.ATTACH_AGREED)
              ? "the agreed outcome (fixed)" : "its own outcome (ATT)"));
    }
    lines.addAll(s.describe());
    if (s.abortsDifferAcrossRanks() && !constants.bugs().contains("WTO")) {
      lines.add("aborts: the domain's first rank's decision on every rank (the fix decides once and broadcasts)");
    }
    SimResult r = new Simulator(cfg).run();
    Divergence d = r.divergence();
    String implSide = d != null ? JavaReplay.describe(d) : "no violation (" + r.stepsCompleted() + " steps)";
    return JavaReplay.judge(model, schedule, specSide, implSide, lines, twin, verdict, d, s.lastStep(), invariants);
  }
}
