package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.Catalogue;
import dev.hicachesync.modelcheck.CfgFile;
import dev.hicachesync.modelcheck.ModelChecker;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.Workspace;
import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.monitor.ConsensusAlarm;
import dev.hicachesync.monitor.ConsensusMonitor;
import dev.hicachesync.sim.Divergence;
import dev.hicachesync.sync.Invariant;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Replays of the consensus-checker monitors ({@code ConsensusMonitor.tla}, {@code ConsensusMonitorPipeline.tla}):
 * a monitor model is its base module's model (the same constants) checked for the monitor's alarms, so the
 * replay runs the base model's counterexample with the base module's driver, with the implementation's monitor
 * ({@code monitor.ConsensusMonitor}) watching every rank's decorated calls, and compares the alarm by name with
 * the one TLC reports on the monitor model (the catalogue's verdict, which the catalogue's verdict test holds TLC
 * to). The monitor model's own counterexample cannot drive a replay: TLC names each of its steps {@code MonNext}
 * (the monitor's one action), not the base action the driver maps.
 *
 * <p>{@code NoConsensusAlarm}: the implementation's monitor fired. {@code NoSilentHang}: the run ended in a
 * collective that failed (the implementation's form of the spec's deadlock, {@code CollectiveMatching}) while the
 * monitor had not fired. A fixed twin runs its base twin's replay and must raise no alarm.
 */
final class MonitorReplay {

  /** Each monitor module's base: the protocol module it extends, whose steps it observes. */
  static final Map<String, String> BASE = Map.of("MCConsensusMonitor", UnifiedReplay.MODULE,
      "MCConsensusMonitorPipeline", "MCHiCacheUnifiedPipeline");

  /**
   * A base module's replay driver, run with a monitor watching the ranks; {@code C} is what the driver reads of a
   * model (its {@link ModelConstants}, and more where the module has more constants).
   */
  interface Driver<C> {
    /** The constants of base model {@code m}. */
    C read(CatalogueReplays replays, ModelEntry m) throws BadInputException;

    /** The constants every driver has. */
    ModelConstants k(C c);

    /** Why the implementation cannot run a model of the base module with constants {@code c}. */
    List<String> unreplayable(C c);

    /** The step of {@code trace}'s last state, as the driver counts steps (the implementation's steps). */
    int lastStep(ErrorTrace trace, C c);

    /** Replays {@code trace} on the implementation configured as {@code model}, {@code monitor} watching. */
    ReplayReport run(String model, C constants, String schedule, ErrorTrace trace, Verdict verdict,
        List<String> invariants, ConsensusMonitor monitor);
  }

  /** The base modules with a driver the monitor can ride on. */
  static final Map<String, Driver<?>> DRIVERS = Map.of(UnifiedReplay.MODULE, new Driver<ModelConstants>() {
    @Override
    public ModelConstants read(CatalogueReplays replays, ModelEntry m) throws BadInputException {
      return replays.constants(m);
    }

    @Override
    public ModelConstants k(ModelConstants c) {
      return c;
    }

    @Override
    public List<String> unreplayable(ModelConstants k) {
      return UnifiedReplay.unreplayable(k);
    }

    @Override
    public int lastStep(ErrorTrace trace, ModelConstants k) {
      return UnifiedSchedule.of(trace, k.cp() * k.tp()).lastStep();
    }

    @Override
    public ReplayReport run(String model, ModelConstants constants, String schedule, ErrorTrace trace,
        Verdict verdict, List<String> invariants, ConsensusMonitor monitor) {
      return UnifiedReplay.run(model, constants, schedule, trace, verdict, invariants, monitor);
    }
  }, UnifiedPipelineReplay.MODULE, UnifiedPipelineReplay.MONITOR_DRIVER);

  /** Why the other base modules have none. */
  static final Map<String, String> NO_DRIVER = Map.of();

  private MonitorReplay() {}

  /**
   * The implementation's side of a run: a collective that failed ({@code CollectiveMatching}, a hang in the spec)
   * is reported to {@code monitor}, which raises {@code NoSilentHang} unless it had fired. Nothing when either is
   * null.
   */
  static void hangSeen(ConsensusMonitor monitor, Divergence d) {
    if (monitor != null && d != null && d.invariant() == Invariant.CollectiveMatching) {
      monitor.hang(d.step(), d.point() + " on rank " + d.rankA());
    }
  }

  /**
   * Replays monitor model {@code model}: for {@code NoConsensusAlarm} (of the model, or of a twin's bug model) the
   * monitor model's own counterexample with its base actions ({@link MonitorTrace}), whose last state is where the
   * spec's checker fires; for {@code NoSilentHang} the base bug model's counterexample, whose end is the hang.
   */
  static ReplayReport replay(CatalogueReplays replays, Catalogue catalogue, Workspace workspace, ModelChecker checker,
      ModelEntry model) throws BadInputException, IOException, InterruptedException {
    String baseModule = BASE.get(model.module());
    String spec = model.expectedVerdict() + " (the catalogue's verdict of " + model.name() + ")";
    boolean twin = model.expectedVerdict().kind() == Verdict.Kind.HOLDS;
    Driver<?> driver = DRIVERS.get(baseModule);
    if (driver == null) {
      return refused(model, model.name(), spec, NO_DRIVER.getOrDefault(baseModule, baseModule + " has no replay"
          + " driver for the monitor to ride on"));
    }
    return replay(replays, catalogue, workspace, checker, model, baseModule, spec, twin, driver);
  }

  /** {@link #replay(CatalogueReplays, Catalogue, Workspace, ModelChecker, ModelEntry)} with the base's driver. */
  private static <C> ReplayReport replay(CatalogueReplays replays, Catalogue catalogue, Workspace workspace,
      ModelChecker checker, ModelEntry model, String baseModule, String spec, boolean twin, Driver<C> driver)
      throws BadInputException, IOException, InterruptedException {
    ModelEntry bug = replays.scheduleOf(model);
    Optional<ModelEntry> base = baseOf(replays, catalogue, model, baseModule);
    Optional<ModelEntry> bugBase = baseOf(replays, catalogue, bug, baseModule);
    if (base.isEmpty() || bugBase.isEmpty()) {
      return refused(model, bug.name(), spec, "no " + baseModule + " model has the constants and bug of "
          + (base.isEmpty() ? model : bug).cfg() + ": the monitor has no base run to watch");
    }
    C constants = driver.read(replays, base.get());
    List<String> why = new ArrayList<>(driver.unreplayable(driver.read(replays, bugBase.get())));
    driver.unreplayable(constants).stream().filter(w -> !why.contains(w)).forEach(why::add);
    if (!why.isEmpty()) {
      return refused(model, bug.name(), spec, "its base model " + base.get().name() + " is not replayable: "
          + String.join("; ", why));
    }
    boolean ownTrace = bug.expectedVerdict().property().equals(ConsensusAlarm.Kind.NoConsensusAlarm.name());
    ModelEntry schedule = ownTrace ? bug : replays.scheduleOf(bugBase.get());
    TlcResult r = replays.counterexample(schedule);
    Optional<ErrorTrace> trace = r.trace();
    if (ownTrace && trace.isPresent()) {
      trace = MonitorTrace.withBaseActions(workspace, checker, bug.name(), baseModule,
          replays.cfg(bugBase.get()), trace.get());
      if (trace.isEmpty()) {
        return new ReplayReport(model.name(), schedule.name(), ReplayReport.Outcome.PART_WAYS, spec, "not run",
            List.of(), JavaReplay.SPEC_WRONG + "the base spec " + baseModule + " has no behaviour through the states"
                + " of " + bug.name() + "'s counterexample (less the monitor's variable)");
      }
    }
    if (trace.isEmpty()) {
      return new ReplayReport(model.name(), schedule.name(), ReplayReport.Outcome.PART_WAYS, spec, "not run",
          List.of(), "TLC printed no counterexample for " + schedule.name() + " (" + r.verdict() + ")");
    }
    if (ownTrace && !twin) {
      spec = r.verdict() + " (TLC on " + bug.name() + ")";
    }
    ModelConstants k = driver.k(constants);
    ConsensusMonitor monitor = new ConsensusMonitor(k.cp() * k.tp() * k.pp());
    // The base replay judges the run as a twin of the schedule's (clean or not): the monitor's verdict is ours.
    ReplayReport run = driver.run(base.get().name(), constants, schedule.name(),
        trace.get(), r.verdict(), CfgFile.read(replays.cfg(schedule)).invariants(), monitor);
    if (run.outcome() == ReplayReport.Outcome.NOT_REPLAYABLE) { // an action of this trace has no seam
      return refused(model, schedule.name(), spec, "the base replay is not: " + run.detail());
    }
    int lastStep = driver.lastStep(trace.get(), constants);
    return judge(model, schedule.name(), twin ? spec : spec + " at step " + lastStep, twin, ownTrace, run,
        monitor.alarm(), lastStep, CfgFile.read(replays.cfg(model)).invariants());
  }

  /**
   * The verdict. A bug model reproduces when the implementation's monitor raises the alarm TLC reports (one its cfg
   * checks) at the spec's step: for {@code NoConsensusAlarm} the step of the counterexample's last state, for {@code
   * NoSilentHang} the step of the base run's hang, which must itself be the spec's (the base replay reproduced). A
   * twin is clean when the run is clean and the monitor raised nothing.
   */
  static ReplayReport judge(ModelEntry model, String schedule, String spec, boolean twin, boolean ownTrace,
      ReplayReport run, ConsensusAlarm alarm, int lastStep, List<String> invariants) {
    String impl = alarm != null ? alarm.toString() : "no alarm (run: " + run.impl() + ")";
    List<String> lines = new ArrayList<>(run.steps());
    if (!ownTrace) {
      lines.add("base replay of " + run.schedule() + " on " + run.model() + ": " + outcomeWord(run)
          + (run.detail().isEmpty() ? "" : " (" + run.detail() + ")"));
    }
    if (twin) {
      if (alarm == null && run.outcome() == ReplayReport.Outcome.CLEAN) {
        return new ReplayReport(model.name(), schedule, ReplayReport.Outcome.CLEAN, spec, impl, lines, "");
      }
      return new ReplayReport(model.name(), schedule, ReplayReport.Outcome.PART_WAYS, spec, impl, lines,
          JavaReplay.IMPL_WRONG + (alarm != null ? "the fixed version's monitor raises " + alarm.kind() + " at step "
              + alarm.step() : "the fixed version breaks " + run.impl()) + " on the bug's schedule");
    }
    String expected = model.expectedVerdict().property();
    boolean silent = expected.equals(ConsensusAlarm.Kind.NoSilentHang.name());
    if (alarm == null || !alarm.kind().name().equals(expected) || !invariants.contains(expected)) {
      return new ReplayReport(model.name(), schedule, ReplayReport.Outcome.PART_WAYS, spec, impl, lines,
          JavaReplay.IMPL_WRONG + "the spec's monitor breaks " + expected + " at step " + lastStep + ", the"
              + " implementation's " + (alarm == null ? "raises no alarm" : "raises " + alarm.kind() + " at step "
              + alarm.step()) + (silent ? " (base replay: " + outcomeWord(run) + ")"
              : alarm == null && !run.impl().startsWith("no violation") ? ": the run stops first, at "
                  + run.impl().replaceFirst(", ranks? [0-9 and]+$", "") // which rank throws first varies
              : ""));
    }
    boolean sameStep = silent ? run.outcome() == ReplayReport.Outcome.SAME_VIOLATION
        && (alarm.step() == lastStep || alarm.step() == lastStep + 1) : alarm.step() == lastStep;
    if (!sameStep) {
      return new ReplayReport(model.name(), schedule, ReplayReport.Outcome.PART_WAYS, spec, impl, lines,
          JavaReplay.IMPL_WRONG + "the spec's monitor breaks " + expected + " at step " + lastStep + ", the"
              + " implementation's at step " + alarm.step() + (silent ? " (base replay: " + outcomeWord(run)
              + (run.detail().isEmpty() ? "" : ", " + run.detail()) + ")" : ""));
    }
    return new ReplayReport(model.name(), schedule, ReplayReport.Outcome.SAME_VIOLATION, spec, impl, lines, "");
  }

  /** The outcome in the table's words. */
  private static String outcomeWord(ReplayReport r) {
    return switch (r.outcome()) {
      case SAME_VIOLATION -> "reproduced";
      case CLEAN -> "clean";
      case PART_WAYS -> "disagrees";
      case NOT_REPLAYABLE -> "not replayable";
    };
  }

  private static ReplayReport refused(ModelEntry model, String schedule, String spec, String why) {
    return new ReplayReport(model.name(), schedule, ReplayReport.Outcome.NOT_REPLAYABLE, spec, "not run", List.of(),
        model.module().replaceFirst("^MC", "") + " over " + BASE.get(model.module()).replaceFirst("^MC", "") + ": "
            + why);
  }

  /**
   * The base module's model that {@code model} monitors: the same constants and bug, and a verdict of the same
   * kind (a bug model's base fails, a twin's holds); the first in catalogue order.
   */
  private static Optional<ModelEntry> baseOf(CatalogueReplays replays, Catalogue catalogue, ModelEntry model,
      String baseModule) throws BadInputException {
    List<String> constants = CfgFile.read(replays.cfg(model)).constants();
    boolean holds = model.expectedVerdict().kind() == Verdict.Kind.HOLDS;
    for (ModelEntry m : catalogue.models()) {
      if (m.module().equals(baseModule) && Objects.equals(m.bug(), model.bug())
          && (m.expectedVerdict().kind() == Verdict.Kind.HOLDS) == holds
          && CfgFile.read(replays.cfg(m)).constants().equals(constants)) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }
}
