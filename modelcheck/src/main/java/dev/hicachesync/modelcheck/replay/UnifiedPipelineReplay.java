package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.monitor.ConsensusMonitor;
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
 * Replays a {@code HiCacheUnifiedPipeline.tla} counterexample (version {@code unified}, PP &gt; 1) on the Java
 * {@code unified} controller with its pipeline stages, and compares both sides as {@link UnifiedReplay} does.
 *
 * <p>The run is the spec-shaped {@code unified} one ({@code LoopShape.specUnified}: requests 1..NReq, one page
 * each, write_back, pools that never fill, data off) on {@code PP} stages of {@code CP x TP} ranks: stage 0
 * reduces S123 and forwards its counts down the pipe, every later stage drains by them in its event check
 * (Drain {@code forwarded}); S7 reduces over each stage's grid and the pp group. The counterexample's choices
 * of every rank's storage threads become the run's seams ({@link UnifiedPipelineSchedule} reads them, {@link
 * UnifiedPipelineEnvironment} answers the simulator's {@code Timing}): where each prefetch thread queries and what it
 * finds, and when each S7 outcome reaches its scheduler. Bug {@code NOWAIT} is the fault {@code
 * pp_drain_nowait} (a later stage cuts the forwarded counts to what it has queued, {@code get_nowait}); its fix
 * is the protocol's own drain, which waits for the stage's threads; Drain {@code stage_local} (each stage
 * drains by its own MIN, before #37562) is the fault {@code pp_drain_stage_local}. The knobs {@code pf_shared_group} and
 * {@code sync_shared_group} are the faults of the same path; knob {@code tickets} (#36700) is the fault {@code
 * pp_prefetch_tickets}, {@code own_hit} {@code ticket_own_hit} and bug {@code TKLOCAL} {@code
 * ticket_stage_completion}, and with tickets the schedule's reads are driven too ({@link TicketEvents}). Knob
 * {@code backup} is the fault {@code backup_at_admission} (each admission queues its node's storage backup, acked
 * where the schedule's {@code BackupOk} is; the spec's constant digest pair, since it models no backup's host lock),
 * {@code stage_extra_pools} the fault {@code stage_extra_pools} and {@code pad_pools} {@code padded_pool_vectors}. A knob,
 * bug or drain the implementation has no path for makes the model not replayable, by name ({@link #unreplayable}).
 * A step-log invariant both sides break at the same step is the same violation ({@link UnifiedPipelineLogs}).
 *
 * <p>Entry points: {@link #run} replays and judges one model; {@link #simulation} is the implementation's run of
 * a schedule, for a caller that judges something else on the same run (a monitor over its collectives).
 */
public final class UnifiedPipelineReplay {

  /** The MC module of the unified pipeline models. */
  public static final String MODULE = "MCHiCacheUnifiedPipeline";

  /** The constants a pipeline replay needs: the unified ones and the spec's {@code Drain}. */
  public record Constants(ModelConstants k, String drain) {}

  /** Knobs of the spec and the simulator's fault of the same code path. */
  private static final Map<String, Fault> KNOB_FAULTS = Map.of("pf_shared_group", Fault.SHARED_PREFETCH_GROUPS,
      "sync_shared_group", Fault.SHARED_COMPLETION_GROUPS, "s7_stage_mask", Fault.S7_STAGE_MASK,
      "tickets", Fault.PP_PREFETCH_TICKETS, "own_hit", Fault.TICKET_OWN_HIT, // tickets: TicketEvents reads the rest
      "backup", Fault.BACKUP_AT_ADMISSION, // backup: the schedule's BackupOk places each ack
      "stage_extra_pools", Fault.STAGE_EXTRA_POOLS, "pad_pools", Fault.PADDED_POOL_VECTORS);

  /** Knobs that need no seam: a fix whose question the implementation cannot ask, or a timing the schedule sets. */
  private static final Set<String> NEUTRAL_KNOBS = Set.of("threads_sync", "s7_agreed_bound");

  /** Why each other knob or bug has no seam: the spec's actions it changes and what the implementation lacks. */
  private static final Map<String, String> NO_SEAM = Map.of(
      "TKLOCAL", "bug TKLOCAL (a ticketed prefetch's completion MIN over its stage only, spec action SyncComplete)"
          + " without knob tickets: the implementation's stage-only completion MIN is a path of the tickets");

  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  /** This driver for a {@code ConsensusMonitorPipeline} model: its base model's replay with the monitor on. */
  static final MonitorReplay.Driver<Constants> MONITOR_DRIVER = new MonitorReplay.Driver<>() {
    @Override
    public Constants read(CatalogueReplays replays, ModelEntry m) throws BadInputException {
      return replays.unifiedPipelineConstants(m);
    }

    @Override
    public ModelConstants k(Constants c) {
      return c.k();
    }

    @Override
    public List<String> unreplayable(Constants c) {
      return UnifiedPipelineReplay.unreplayable(c);
    }

    @Override
    public int lastStep(ErrorTrace trace, Constants c) {
      ModelConstants k = c.k();
      return UnifiedPipelineSchedule.of(trace, k.cp() * k.tp() * k.pp(), k.cp() * k.tp()).lastStep();
    }

    @Override
    public ReplayReport run(String model, Constants c, String schedule, ErrorTrace trace, Verdict verdict,
        List<String> invariants, ConsensusMonitor monitor) {
      return UnifiedPipelineReplay.run(model, c, schedule, trace, verdict, invariants, monitor);
    }
  };

  private UnifiedPipelineReplay() {}

  /** The reasons the implementation cannot run a unified pipeline model with constants {@code c}, whatever the trace. */
  public static List<String> unreplayable(Constants c) {
    ModelConstants k = c.k();
    List<String> why = new ArrayList<>();
    if (k.dp() != 1) {
      why.add("unified pipeline replays cover one sync domain (DP 1), not DP " + k.dp());
    }
    if (!c.drain().equals("forwarded") && !c.drain().equals("stage_local")) {
      why.add("Drain " + c.drain() + " has no fault switch in the unified pipeline replay");
    }
    for (String bug : k.bugs()) {
      if (!bug.equals("NOWAIT") && !(bug.equals("TKLOCAL") && k.knobs().contains("tickets"))) {
        why.add(NO_SEAM.getOrDefault(bug, "bug " + bug + " has no fault switch in the unified pipeline replay"));
      }
    }
    for (String knob : k.knobs()) {
      if (!KNOB_FAULTS.containsKey(knob) && !NEUTRAL_KNOBS.contains(knob)) {
        why.add(NO_SEAM.getOrDefault(knob, "knob " + knob + " has no seam in the unified pipeline replay"));
      }
    }
    return why;
  }

  /**
   * The implementation's run of schedule {@code s} configured as the model with constants {@code c}: the
   * spec-shaped unified run on the model's stages, its faults, the schedule's timing.
   */
  public static SimConfig simulation(Constants c, UnifiedPipelineSchedule s) {
    return simulation(c, s, null);
  }

  /** {@link #simulation(Constants, UnifiedPipelineSchedule)} with {@code monitor} (or null) watching the ranks. */
  static SimConfig simulation(Constants c, UnifiedPipelineSchedule s, ConsensusMonitor monitor) {
    ModelConstants k = c.k();
    Set<Fault> faults = EnumSet.noneOf(Fault.class);
    if (k.bugs().contains("NOWAIT")) {
      faults.add(Fault.PP_DRAIN_NOWAIT);
    }
    if (c.drain().equals("stage_local")) {
      faults.add(Fault.PP_DRAIN_STAGE_LOCAL);
    }
    if (k.bugs().contains("TKLOCAL")) {
      faults.add(Fault.TICKET_STAGE_COMPLETION);
    }
    k.knobs().stream().filter(KNOB_FAULTS::containsKey).forEach(x -> faults.add(KNOB_FAULTS.get(x)));
    if (k.knobs().contains("backup")) { // the spec models neither the digest nor a backup's host lock, which the
      faults.add(Fault.CONSTANT_DIGEST_PAIR); // tree's digest covers: parted counts are not judged by the locks they leave
    }
    if (k.knobs().contains("s7_agreed_bound")) { // #39267's fix: the hit bound agreed first, every mask one size
      faults.remove(Fault.S7_STAGE_MASK);
    }
    int n = k.requests().size();
    return SimConfig.builder()
        .topology(Topology.of(1, k.cp(), k.tp(), k.pp()))
        .version(ProtocolVersion.UNIFIED)
        .storage(StorageMode.MEMORY) // HiCacheUnifiedPipeline has storage on
        .prefetchPolicy(PrefetchPolicy.parse(k.policy()))
        .writePolicy(WritePolicy.WRITE_BACK)
        .data(DataOptions.OFF)
        .specShaped(SpecShaped.distinct(n))
        .devicePages(n)
        // knob backup: each admitted request's node also takes a host page for its backup, which the spec abstracts
        .hostPages(Math.max(n, k.hostCap()) + (faults.contains(Fault.BACKUP_AT_ADMISSION) ? n : 0))
        .faults(faults)
        .timing(new UnifiedPipelineEnvironment(s, k.cp() * k.tp(), faults.contains(Fault.PP_DRAIN_NOWAIT)))
        .collectiveTimeout(TIMEOUT)
        .steps(s.lastStep() + 5L * n + 4)
        .seed(0)
        .consensusMonitor(monitor)
        .build();
  }

  /**
   * Replays {@code trace} (the counterexample of {@code schedule}, verdict {@code verdict}) on the
   * implementation configured as {@code model} ({@code c}); {@code invariants} are the schedule cfg's, in order.
   */
  public static ReplayReport run(String model, Constants c, String schedule, ErrorTrace trace, Verdict verdict,
      List<String> invariants) {
    return run(model, c, schedule, trace, verdict, invariants, null);
  }

  /** {@link #run(String, Constants, String, ErrorTrace, Verdict, List)} with {@code monitor} (or null) watching. */
  static ReplayReport run(String model, Constants c, String schedule, ErrorTrace trace, Verdict verdict,
      List<String> invariants, ConsensusMonitor monitor) {
    boolean twin = !model.equals(schedule);
    ModelConstants k = c.k();
    UnifiedPipelineSchedule s = UnifiedPipelineSchedule.of(trace, k.cp() * k.tp() * k.pp(), k.cp() * k.tp());
    String specSide = verdict + " at state " + trace.length() + ", step " + s.lastStep();
    List<String> why = unreplayable(c);
    s.undriven().stream().filter(a -> !(a.equals("PfRead") && k.knobs().contains("tickets"))) // TicketEvents
        .forEach(a -> why.add("action " + a + " has no seam in the unified pipeline replay"));
    if (!why.isEmpty()) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.NOT_REPLAYABLE, specSide, "not run", List.of(),
          String.join("; ", why));
    }
    List<String> lines = new ArrayList<>(s.describe());
    lines.add(c.drain().equals("stage_local") ? "drain: every stage drains by its own stage's S123 MIN (Drain"
        + " stage_local, fault pp_drain_stage_local)" : "drain: every later stage drains stage 0's forwarded S123"
        + " counts " + (k.bugs().contains("NOWAIT") ? "cut to what it has queued (get_nowait, NOWAIT)"
            : "once its own threads have queued them (fixed)"));
    s.roundsAcrossSteps().forEach(x -> lines.add(x + " (stages not in lockstep: the pp group's collective matches"
        + " S7 by round, the domain checker compares the other stage without it)"));
    SimResult r;
    try {
      r = new Simulator(simulation(c, s, monitor)).run();
    } catch (IllegalStateException e) { // a rank crashed: the implementation departs from the spec's schedule
      return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, "crashed", lines,
          JavaReplay.IMPL_WRONG + "it crashed: " + e.getMessage().lines().findFirst().orElse(""));
    }
    Divergence d = r.divergence();
    MonitorReplay.hangSeen(monitor, d);
    String implSide = d != null ? JavaReplay.describe(d) : "no violation (" + r.stepsCompleted() + " steps)";
    int step = s.lastStep();
    if (d != null) {
      lines.add("implementation: " + d.viewA().lines().findFirst().orElse("").trim());
      if (digestOfTheStepBefore(d, step)) {
        step++;
        lines.add("compared: the trees the spec logs at the end of step " + s.lastStep() + " are first compared by"
            + " the implementation at step " + step + "'s S123 (its digest conjunct), before that step changes them");
      } else if (s7OfTheStepAfter(d, step, s)) {
        step++;
        lines.add("compared: the S7 calls the spec posts after step " + s.lastStep() + "'s RECV, outside its event"
            + " check, are the implementation's prefetch passes at the start of step " + step + ", where they meet");
      }
    }
    ReplayReport judged = JavaReplay.judge(model, schedule, specSide, implSide, lines, twin, verdict, d, step,
        invariants);
    List<String> specBroken = d == null || twin || d.step() != step ? List.of()
        : UnifiedPipelineLogs.broken(trace, k.cp() * k.tp() * k.pp()).stream().filter(invariants::contains).toList();
    List<String> both = specBroken.stream()
        .filter(i -> d.invariants().stream().anyMatch(x -> x.name().equals(i))).toList();
    if (judged.outcome() == ReplayReport.Outcome.PART_WAYS && !both.isEmpty()) { // UnifiedPipelineLogs
      lines.add("compared: both sides break " + String.join(", ", both) + " at step " + step + " (the spec's last"
          + " state breaks " + specBroken + ", TLC names the first in its cfg's order; the implementation "
          + d.invariants() + ", at its finer lockstep points)");
      return new ReplayReport(model, schedule, ReplayReport.Outcome.SAME_VIOLATION, specSide, implSide, lines, "");
    }
    return judged;
  }

  /**
   * Whether {@code d} is a prefetch thread's collective failing at the start of step {@code step + 1}, where the
   * schedule places S7 queries the spec posts after step {@code step}'s admission (the thread's next pass: nothing
   * of the scheduler's runs in between).
   */
  static boolean s7OfTheStepAfter(Divergence d, int step, UnifiedPipelineSchedule s) {
    return d.step() == step + 1 && d.invariant() == dev.hicachesync.sync.Invariant.CollectiveMatching
        && d.point().contains("prefetch thread") && s.queriesAtStartOf(step + 1);
  }

  /**
   * Whether {@code d} is S123's digest conjunct at step {@code step + 1}: the implementation's first comparison
   * of the trees after step {@code step} (its end-of-step digests are compared at the RECV two steps on). Between
   * a step's end and the next event check a spec-shaped unified step changes no tree on its own: RECV brings no
   * request while one waits or a prefetch is in flight anywhere, and only a request a rank admitted finishes.
   */
  static boolean digestOfTheStepBefore(Divergence d, int step) {
    return d.step() == step + 1 && d.invariant() == dev.hicachesync.sync.Invariant.TreeAgreement
        && d.viewA().contains("S123 digest conjunct");
  }
}
