package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.monitor.ConsensusMonitor;
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
 * counterexample's rank-local environment choices become the run's seams ({@link UnifiedSchedule} reads them,
 * {@link UnifiedEnvironment} answers the simulator's {@code Timing} with them): the runtime attach (Knob {@code
 * attach}: {@code EnvAttachFails(r)} = rank r's backend fails to initialise at the attach the first RECV
 * handles; Bug {@code ATT} = each rank keeps its own outcome, fault {@code attach_fails_locally}; fixed = the
 * outcome agreed, fault {@code attach_agreed}), the waiting-queue aborts ({@code EnvClock} then {@code
 * SchedAbortCheck}; Bug {@code WTO} per rank, fixed the domain's first rank's decision everywhere), the
 * prefetch thread's passes and hits ({@code PfQuery(r, h)}), when each hit reaches the scheduler ({@code
 * PfPutHit}), the storage reads ({@code PfRead(r, k)}), the batch-full test ({@code EnvBatchFull}, Bug {@code
 * B10} = fault {@code early_admission_exit}), the PD decode load-backs' GPU events ({@code EnvLoadDone(r)}; Knob
 * {@code pd_decode} = fault {@code pd_decode_restore}: each prompt is on the rank's host tier when it arrives, so
 * each admission loads it back; Bug {@code PDLB} = fault {@code pd_decode_load_readiness}); the group knobs and {@code io_term} are the simulator's faults of
 * the same path. The runtime attach step by step (Knob {@code attach_steps}: {@code SchedAttach},
 * {@code GroupsComplete}, {@code SchedAttachRest}, {@code AttachOkComplete}) is the controller's {@code
 * attachStorageBackend} with the faults of its bugs and knobs ({@code ATT_EARLY}, {@code ROLLBACK_PARTIAL},
 * {@code attach_register_v2}, {@code attach_retry}); the ranks whose backend fails are those failing at their
 * first {@code SchedAttach}. Knob {@code buffer_only} is the simulator's buffer-only host memory with write
 * staging (fault {@code buffer_write_staging}; bug {@code STAGE_LOCAL}: {@code staging_freed_on_backup_thread}),
 * each backup acked at the start of the step after the spec's {@code BackupOk}. A raising storage query (Knob
 * {@code pf_raise}: {@code PfRaise(r)} = that query of rank r raises, fault {@code pf_raise}, caught as 0 hit
 * pages; Bug {@code PFDIE} = fault {@code pf_raise_thread_dies}, the thread dies) is the schedule's too, and a
 * liveness lasso whose peer waits in S7 for ever is judged by {@link StuckThreadJudgement}; a lasso the scheduler
 * repeats by itself ({@code AttachEventuallySucceeds}: Knob {@code attach_retry} with bug {@code
 * ROLLBACK_PARTIAL}) by {@link LassoJudgement}. A switch or action with no seam (a raising backend, a prefetch
 * timeout on one rank's clock) or a property with no implementation check makes the model not replayable, by
 * name.
 * A deadlock of the spec is the implementation's {@code CollectiveMatching} (a rank that skips a collective
 * fails it by mismatch or the fabric's timeout).
 */
public final class UnifiedReplay {

  /** The MC module of the unified models. */
  public static final String MODULE = "MCHiCacheUnified";

  /** Bug switches the schedule drives: each is the environment's choice on the same code path. */
  private static final Set<String> SCHEDULED_BUGS = Set.of("ATT", "WTO", "B10", "PDLB", "ATT_EARLY",
      "ROLLBACK_PARTIAL", "STAGE_LOCAL", "PFDIE");

  /** Knobs the schedule drives (their environment actions have seams, {@link UnifiedEnvironment}). */
  private static final Set<String> SCHEDULED_KNOBS = Set.of("attach", "wait_timeout", "batch_full",
      "pd_decode", "buffer_only");

  /** Knobs of the spec and the simulator's fault of the same code path. */
  private static final Map<String, Fault> KNOB_FAULTS = Map.of("pf_shared_group", Fault.SHARED_PREFETCH_GROUPS,
      "io_term", Fault.LOCAL_TERMINATE, "sync_shared_group", Fault.SHARED_COMPLETION_GROUPS,
      "attach_steps", Fault.ATTACH_STEPS, "attach_register_v2", Fault.ATTACH_REGISTER_V2_RAISES,
      "attach_retry", Fault.ATTACH_RETRY, "pf_raise", Fault.PF_RAISE);

  /** Why each other bug switch has no seam here: the implementation's path or switch it lacks. */
  private static final Map<String, String> NO_SEAM = Map.of(
      "B38428", "B38428 (fault backup_thread_dies) needs a backup (Knob backup_raise), which the spec-shaped"
          + " unified run (write_back, nothing written) never starts");

  /** Why each other knob has no seam here: the spec's actions it adds and what the implementation lacks. */
  private static final Map<String, String> KNOB_NO_SEAM = Map.of(
      "backup_raise", "knob backup_raise (spec actions BackupOk, BackupRaise): the spec-shaped unified run is"
          + " write_back and writes nothing, so no backup exists for the schedule");

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
        why.add(KNOB_NO_SEAM.getOrDefault(knob, "knob " + knob + " has no seam in the unified replay (its"
            + " environment action is rank-local and the spec-shaped unified run does not take it from the"
            + " counterexample)"));
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
    return run(model, constants, schedule, trace, verdict, invariants, null);
  }

  /**
   * {@link #run(String, ModelConstants, String, ErrorTrace, Verdict, List)} with {@code monitor} (or null) watching
   * the ranks' calls.
   */
  static ReplayReport run(String model, ModelConstants constants, String schedule, ErrorTrace trace,
      Verdict verdict, List<String> invariants, ConsensusMonitor monitor) {
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
    if (constants.bugs().contains("ATT_EARLY")) {
      faults.add(Fault.ATTACH_FAILS_BEFORE_GROUPS);
    }
    if (constants.bugs().contains("ROLLBACK_PARTIAL")) {
      faults.add(Fault.ATTACH_PARTIAL_ROLLBACK);
    }
    if (constants.bugs().contains("PFDIE")) { // the raise ends the thread
      faults.add(Fault.PF_RAISE_THREAD_DIES);
    }
    if (constants.bugs().contains("B10")) {
      faults.add(Fault.EARLY_ADMISSION_EXIT);
    }
    if (constants.knobs().contains("pd_decode")) { // each prompt on host at arrival: a load-back per admission
      faults.add(Fault.PD_DECODE_RESTORE);
    }
    if (constants.bugs().contains("PDLB")) {
      faults.add(Fault.PD_DECODE_LOAD_READINESS);
    }
    boolean bufferOnly = constants.knobs().contains("buffer_only");
    if (bufferOnly) { // write staging through the host pool; STAGE_LOCAL: each page freed on the backup thread
      faults.add(constants.bugs().contains("STAGE_LOCAL") ? Fault.STAGING_FREED_ON_BACKUP_THREAD
          : Fault.BUFFER_WRITE_STAGING);
    }
    if (monitor != null) { // the checker is compared on the spec's behaviour, whose digest pair is constant
      faults.add(Fault.CONSTANT_DIGEST_PAIR);
    }
    int n = constants.requests().size();
    // A thread posted for ever at a collective is the stuck-thread judgement's (the implementation times out);
    // a lasso with none (every prefetch thread died, or an attach retried for ever) is the lasso judgement's.
    boolean stuck = !twin && StuckThreadJudgement.applies(verdict, s.deaths()) && s.deaths().stuckStep() >= 0;
    boolean lasso = !twin && !stuck && LassoJudgement.applies(verdict, trace);
    SpecShaped shaped = SpecShaped.distinct(n).attachFailingOn(s.attachFails());
    if (lasso && !invariants.contains("AttachStateConsistent")) { // the cycle runs through a half-attached rank
      shaped = shaped.withoutAttachStateCheck();
    }
    SimConfig cfg = SimConfig.builder()
        .topology(Topology.of(1, constants.cp(), constants.tp(), 1))
        .version(ProtocolVersion.UNIFIED)
        // the attach needs a backend to attach; StorageOn FALSE without it is storage off
        .storage(constants.storageOn() || attach ? StorageMode.MEMORY : StorageMode.OFF)
        .prefetchPolicy(PrefetchPolicy.parse(constants.policy()))
        .writePolicy(WritePolicy.WRITE_BACK)
        .data(DataOptions.OFF)
        .specShaped(shaped)
        .devicePages(n)
        .hostPages(Math.max(n, constants.hostCap()))
        .hostBufferOnly(bufferOnly)
        .faults(faults)
        .timing(new UnifiedEnvironment(s, constants.bugs().contains("WTO")))
        .collectiveTimeout(TIMEOUT)
        .steps(s.lastStep() + 5L * n + 4)
        .seed(0)
        .consensusMonitor(monitor)
        .build();
    List<String> lines = new ArrayList<>();
    if (attach) {
      lines.add("schedule: the runtime attach" + (faults.contains(Fault.ATTACH_STEPS) ? " (step by step)" : "")
          + " at step 0 fails on rank(s) " + s.attachFails()
          + (s.attachFails().isEmpty() ? " (none)" : "") + "; each rank keeps " + (faults.contains(Fault.ATTACH_AGREED)
              ? "the agreed outcome (fixed)" : "its own outcome (ATT)"));
    }
    lines.addAll(s.describe());
    lines.addAll(StuckThreadJudgement.describe(s.deaths(), ranks));
    if (s.abortsDifferAcrossRanks() && !constants.bugs().contains("WTO")) {
      lines.add("aborts: the domain's first rank's decision on every rank (the fix decides once and broadcasts)");
    }
    if (lasso) { // a liveness lasso the scheduler repeats by itself: the run must repeat with the cycle
      return LassoJudgement.judge(model, schedule, specSide, lines, verdict, trace, cfg, ranks);
    }
    SimResult r = new Simulator(cfg).run();
    Divergence d = r.divergence();
    MonitorReplay.hangSeen(monitor, d);
    String implSide = d != null ? JavaReplay.describe(d) : "no violation (" + r.stepsCompleted() + " steps)";
    if (d != null) { // what the rank saw: a mismatch names both calls, a skipped call the fabric's timeout
      lines.add("implementation: " + d.viewA().lines().findFirst().orElse("").trim());
    }
    if (!twin && StuckThreadJudgement.applies(verdict, s.deaths())) { // a thread waits for ever: a timeout (or none)
      return StuckThreadJudgement.judge(model, schedule, specSide, implSide, lines, verdict, d, s.deaths(), invariants);
    }
    int step = s.lastStep();
    if (d != null && d.point().endsWith("RECV") && s.endsAtLockstep()) { // a pool or queue a thread changed between steps
      step++;
      lines.add("compared: the spec's last state is the lockstep point of step " + step + "'s RECV (every rank"
          + " posted), where the implementation compares the ranks at its RECV");
    }
    return JavaReplay.judge(model, schedule, specSide, implSide, lines, twin, verdict, d, step, invariants);
  }
}
