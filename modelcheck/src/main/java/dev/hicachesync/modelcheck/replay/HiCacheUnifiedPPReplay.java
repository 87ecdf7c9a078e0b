package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.value.TlaValue;
import dev.hicachesync.sim.Divergence;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.Simulator;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.sim.datapath.DataOptions;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.spec.SpecShaped;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Replays a {@code HiCacheUnifiedPP.tla} counterexample (PD prefill with two pipeline stages of one rank each)
 * on the Java {@code unified} controller with its stages and PD prefill's bootstrap queue, and compares the
 * violated invariant by name and step, as {@link JavaReplay} does.
 *
 * <p>The run is the spec-shaped {@code unified} one (one request of one page, {@code wait_complete},
 * write_back, data off) on PP 2 with the fault {@code pd_prefill_bootstrap}: the request's prefetch starts at
 * RECV and it waits in the bootstrap queue until the ring ({@code sim.PdBootstrapQueue}, the spec's {@code
 * Stage0Step}/{@code Stage1Step} consensus with Admission {@code per_stage}) moves it into both stages' waiting
 * queues at one step; each stage admits it once its own {@code check_prefetch_progress} says done. The
 * counterexample's environment ({@link HiCacheUnifiedPPSchedule}, answered by {@link
 * HiCacheUnifiedPPEnvironment}) decides when the bootstrap completes and where the final ack reaches each stage.
 * Drain {@code forwarded} is the implementation's own S123 (stage 0 reduces and forwards its counts), {@code
 * stage_local} the fault {@code pp_drain_stage_local}; Ready {@code drain} is {@code wait_complete}'s own
 * completion at the ack drain, {@code thread} the fault {@code pp_thread_readiness}. Admission {@code consensus}
 * (#34568) has no seam. The implementation's {@code TreeAgreement} is found by the domain checker comparing the
 * stages' digests at equal step numbers, as the spec's invariant compares {@code AdmittedBy} per step.
 */
final class HiCacheUnifiedPPReplay {

  /** The MC module of the PD prefill models. */
  static final String MODULE = "MCHiCacheUnifiedPP";

  /** The constants this replay reads. */
  static final Set<String> CONSTANTS = Set.of("Drain", "Ready", "Admission", "MaxSkew", "Steps");

  private static final Duration TIMEOUT = Duration.ofSeconds(2);
  private static final Topology STAGES = Topology.of(1, 1, 1, 2);

  private HiCacheUnifiedPPReplay() {}

  /** The reasons the implementation cannot run a model with constants {@code k}, whatever the trace. */
  static List<String> unreplayable(Map<String, TlaValue> k) {
    List<String> why = new ArrayList<>();
    if (!str(k, "Admission").equals("per_stage")) {
      why.add("Admission " + str(k, "Admission") + " (#34568: readiness folded into the bootstrap ring, stage 0"
          + " proposes a request only once its prefetch is done and stage 1 confirms only once its own is) has no"
          + " seam: the implementation's ring (sim.PdBootstrapQueue) moves a bootstrapped request without asking"
          + " check_prefetch_progress");
    }
    if (!Set.of("forwarded", "stage_local").contains(str(k, "Drain"))) {
      why.add("Drain " + str(k, "Drain") + " has no fault switch in the PD prefill replay");
    }
    if (!Set.of("drain", "thread").contains(str(k, "Ready"))) {
      why.add("Ready " + str(k, "Ready") + " has no fault switch in the PD prefill replay");
    }
    return why;
  }

  /** The implementation's run of schedule {@code s} configured as the model with constants {@code k}. */
  static SimConfig simulation(Map<String, TlaValue> k, HiCacheUnifiedPPSchedule s) {
    Set<Fault> faults = EnumSet.of(Fault.PD_PREFILL_BOOTSTRAP);
    if (str(k, "Drain").equals("stage_local")) {
      faults.add(Fault.PP_DRAIN_STAGE_LOCAL);
    }
    if (str(k, "Ready").equals("thread")) {
      faults.add(Fault.PP_THREAD_READINESS);
    }
    return SimConfig.builder()
        .topology(STAGES)
        .version(ProtocolVersion.UNIFIED)
        .storage(StorageMode.MEMORY)
        .prefetchPolicy(PrefetchPolicy.WAIT_COMPLETE)
        .writePolicy(WritePolicy.WRITE_BACK)
        .data(DataOptions.OFF)
        .specShaped(SpecShaped.distinct(1))
        .devicePages(1)
        .hostPages(2)
        .faults(faults)
        .timing(new HiCacheUnifiedPPEnvironment(s, STAGES))
        .collectiveTimeout(TIMEOUT)
        .steps(s.afterTrace() + 6L)
        .seed(0)
        .build();
  }

  /**
   * Replays {@code trace} (the counterexample of {@code schedule}, verdict {@code verdict}) on the implementation
   * configured as {@code model} ({@code k}: its constants' values); {@code invariants} are the schedule cfg's.
   */
  static ReplayReport run(String model, Map<String, TlaValue> k, String schedule, ErrorTrace trace, Verdict verdict,
      List<String> invariants) {
    boolean twin = !model.equals(schedule);
    HiCacheUnifiedPPSchedule s = HiCacheUnifiedPPSchedule.of(trace);
    String specSide = verdict + " at state " + trace.length() + ", step " + s.lastStep();
    List<String> why = new ArrayList<>(unreplayable(k));
    why.addAll(s.unmapped());
    if (!why.isEmpty()) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.NOT_REPLAYABLE, specSide, "not run", List.of(),
          String.join("; ", why));
    }
    List<String> lines = new ArrayList<>(s.describe());
    lines.add("drain: " + (str(k, "Drain").equals("stage_local") ? "every stage drains by its own S123 MIN (Drain"
        + " stage_local, fault pp_drain_stage_local)" : "stage 1 drains stage 0's forwarded S123 counts (Drain"
        + " forwarded)") + "; readiness: " + (str(k, "Ready").equals("thread") ? "the completion-sync thread's"
        + " queued final ack (Ready thread, fault pp_thread_readiness)" : "the final ack drained (Ready drain,"
        + " wait_complete)"));
    SimResult r;
    try {
      r = new Simulator(simulation(k, s)).run();
    } catch (IllegalStateException e) { // a rank crashed: the implementation departs from the spec's schedule
      return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, "crashed", lines,
          JavaReplay.IMPL_WRONG + "it crashed: " + e.getMessage().lines().findFirst().orElse(""));
    }
    Divergence d = r.divergence();
    String implSide = d != null ? JavaReplay.describe(d) : "no violation (" + r.stepsCompleted() + " steps)";
    int step = s.lastStep();
    if (d != null) {
      lines.add("implementation: " + d.viewA().lines().findFirst().orElse("").trim());
      if (d.rankB() >= 0) {
        lines.add("implementation: " + d.viewB().lines().findFirst().orElse("").trim());
      }
      if (UnifiedPipelineReplay.digestOfTheStepBefore(d, step)) {
        // the trees part at step's admission; stage 1's next S123 (the forwarded digest conjunct) may name it before
        // the domain checker compares the step's end: which comes first is a race of the stages' threads
        step++;
        lines.add("compared: the trees the stages end step " + s.lastStep() + " with are first compared by the"
            + " implementation at step " + step + "'s S123 (its digest conjunct), before that step changes them");
      }
    }
    return JavaReplay.judge(model, schedule, specSide, implSide, lines, twin, verdict, d, step, invariants);
  }

  private static String str(Map<String, TlaValue> k, String name) {
    return k.get(name) instanceof TlaValue.Str v ? v.value() : String.valueOf(k.get(name));
  }
}
