package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.Catalogue;
import dev.hicachesync.modelcheck.CfgFile;
import dev.hicachesync.modelcheck.ModelChecker;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.Tier;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.Workspace;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Replays of catalogue models: a bug model replays its own counterexample; a fixed twin (same bug, same
 * module, expected to hold) replays its bug model's counterexample against the fixed constants.
 *
 * <p>Which models: every {@code ci}-tier model expected to fail (a catalogued bug, a knob, a finding), except
 * the {@code Debug*} reachability models (their "violation" is a state the spec must reach, not a bug), and
 * their fixed twins. Each module has a driver or a reason why not ({@link #NO_DRIVER}); a refusal is decided
 * from the model's constants before TLC runs, so it is cheap.
 */
public final class CatalogueReplays {

  /** The module whose counterexamples {@link JavaReplay} replays. */
  public static final String MODULE = "MCHiCacheSync";

  /** Why the modules without a replay driver have none: what the simulator lacks to follow their counterexamples. */
  static final Map<String, String> NO_DRIVER = Map.of();

  private final Workspace workspace;
  private final Catalogue catalogue;
  private final ModelChecker checker;
  /** TLC's result per schedule model: a fixed twin replays the counterexample its bug model already has. */
  private final Map<String, TlcResult> checked = new HashMap<>();
  /** Constants per model: TLC parses the spec to evaluate them, once per model. */
  private final Map<String, ModelConstants> constants = new HashMap<>();

  public CatalogueReplays(Workspace workspace, Catalogue catalogue, ModelChecker checker) {
    this.workspace = workspace;
    this.catalogue = catalogue;
    this.checker = checker;
  }

  /** Whether {@code m} is a bug model a replay covers: ci tier, expected to fail, not a Debug* reachability check. */
  public static boolean isBugModel(ModelEntry m) {
    Verdict v = m.expectedVerdict();
    return m.tierValue() == Tier.CI && v.isViolation() && !v.property().startsWith("Debug");
  }

  /** The ci-tier bug models of every module, in catalogue order. */
  public List<ModelEntry> bugModels() {
    return catalogue.models().stream().filter(CatalogueReplays::isBugModel).toList();
  }

  /** The ci-tier bug models of {@code module}. */
  public List<ModelEntry> bugModels(String module) {
    return bugModels().stream().filter(m -> m.module().equals(module)).toList();
  }

  /** The ci-tier models of {@link UnifiedReplay#MODULE} that are expected to fail. */
  public List<ModelEntry> unifiedBugModels() {
    return bugModels(UnifiedReplay.MODULE);
  }

  /** Every model a replay covers: each bug model, followed by its fixed twin if it has one. */
  public List<ModelEntry> replayed() {
    List<ModelEntry> out = new ArrayList<>();
    for (ModelEntry bug : bugModels()) {
      out.add(bug);
      twinOf(bug).filter(t -> !out.contains(t)).ifPresent(out::add);
    }
    return out;
  }

  /**
   * The fixed twin of a bug model: same bug and module, expected to hold; one named "fixed" first (a model
   * of the bug's fix, in any tier), else the first in catalogue order.
   */
  public Optional<ModelEntry> twinOf(ModelEntry bug) {
    List<ModelEntry> twins = catalogue.models().stream()
        .filter(m -> bug.bug() != null && Objects.equals(m.bug(), bug.bug()) && m.module().equals(bug.module())
            && m.expectedVerdict().kind() == Verdict.Kind.HOLDS)
        .toList();
    return twins.stream().filter(m -> m.name().contains("fixed")).findFirst().or(() -> twins.stream().findFirst());
  }

  /** The constants of {@code model}, from its cfg and MC module. */
  public ModelConstants constants(ModelEntry model) throws BadInputException {
    ModelConstants known = constants.get(model.name());
    if (known == null) {
      known = model.module().equals(UnifiedReplay.MODULE)
          ? ModelConstants.readUnified(cfg(model), module(model), workspace.spec())
          : ModelConstants.read(cfg(model), module(model), workspace.spec());
      constants.put(model.name(), known);
    }
    return known;
  }

  /** The constants of {@code model}, a {@code HiCacheUnifiedPipeline} model, with its {@code Drain}. */
  UnifiedPipelineReplay.Constants unifiedPipelineConstants(ModelEntry model) throws BadInputException {
    return ModelConstants.readUnifiedPipeline(cfg(model), module(model), workspace.spec());
  }

  Path cfg(ModelEntry model) {
    return workspace.models().resolve(model.cfg());
  }

  private Path module(ModelEntry model) {
    return workspace.models().resolve(model.module() + ".tla");
  }

  /**
   * Replays {@code model}: its own counterexample, or for a model expected to hold its bug twin's; the
   * model is found by name. TLC runs only when the constants leave something to replay.
   */
  public ReplayReport replay(String name) throws BadInputException, IOException, InterruptedException {
    ModelEntry model = catalogue.named(List.of(name)).get(0);
    String module = model.module();
    if (MonitorReplay.BASE.containsKey(module)) { // a monitor rides on its base module's driver
      return MonitorReplay.replay(this, catalogue, workspace, checker, model);
    }
    ModelEntry schedule = scheduleOf(model);
    String noDriver = NO_DRIVER.get(module);
    if (noDriver != null) {
      return refused(name, schedule, noDriver);
    }
    String s = schedule.name();
    if (module.equals(PipelineReplay.MODULE)) {
      // the schedule's constants under the model's sync mode: a fixed twin runs its own (the bug's mode is no
      // choice of the counterexample, only the groups it reduces over)
      String ppSync = PipelineReplay.ppSync(cfg(model));
      ModelConstants k = constants(model);
      return refuseOrRun(name, schedule, PipelineReplay.unreplayable(constants(schedule), ppSync),
          PipelineReplay.unreplayable(k, ppSync),
          (r, inv) -> PipelineReplay.run(name, k, ppSync, s, r.trace().get(), r.verdict(), inv));
    }
    if (module.equals(UnifiedPipelineReplay.MODULE)) {
      UnifiedPipelineReplay.Constants c = ModelConstants.readUnifiedPipeline(cfg(model), module(model),
          workspace.spec());
      return refuseOrRun(name, schedule, UnifiedPipelineReplay.unreplayable(s.equals(name) ? c
              : ModelConstants.readUnifiedPipeline(cfg(schedule), module(schedule), workspace.spec())),
          UnifiedPipelineReplay.unreplayable(c),
          (r, inv) -> UnifiedPipelineReplay.run(name, c, s, r.trace().get(), r.verdict(), inv));
    }
    if (module.equals(HiCacheUnifiedPPReplay.MODULE)) {
      Map<String, dev.hicachesync.modelcheck.value.TlaValue> k = ModelConstants.values(cfg(model), module(model),
          workspace.spec(), HiCacheUnifiedPPReplay.CONSTANTS);
      return refuseOrRun(name, schedule, List.of(), HiCacheUnifiedPPReplay.unreplayable(k),
          (r, inv) -> HiCacheUnifiedPPReplay.run(name, k, s, r.trace().get(), r.verdict(), inv));
    }
    if (module.equals(ReplicasReplay.MODULE)) {
      Map<String, dev.hicachesync.modelcheck.value.TlaValue> k = ModelConstants.values(cfg(model), module(model),
          workspace.spec(), ReplicasReplay.CONSTANTS);
      return refuseOrRun(name, schedule, List.of(), List.of(),
          (r, inv) -> ReplicasReplay.run(name, k, s, r.trace().get(), r.verdict(), inv));
    }
    if (module.equals(UnifiedReplay.MODULE)) {
      ModelConstants k = constants(model);
      return refuseOrRun(name, schedule, UnifiedReplay.unreplayable(constants(schedule)),
          UnifiedReplay.unreplayable(k),
          (r, inv) -> UnifiedReplay.run(name, k, s, r.trace().get(), r.verdict(), inv));
    }
    if (module.equals(MODULE)) {
      ModelConstants k = constants(model);
      return refuseOrRun(name, schedule, JavaReplay.unreplayable(constants(schedule)), JavaReplay.unreplayable(k),
          (r, inv) -> JavaReplay.run(name, k, s, r.trace().get(), r.verdict(), inv));
    }
    return refused(name, schedule, module + " has no replay driver");
  }

  /** A driver's replay of a counterexample TLC printed, judged against the schedule's invariants in cfg order. */
  @FunctionalInterface
  private interface Driver {
    ReplayReport run(TlcResult counterexample, List<String> invariants);
  }

  /**
   * The one path of every driver: refused for the reasons of the schedule's constants and the model's (each
   * once), else the schedule's counterexample replayed by {@code driver}; a bug model TLC prints no
   * counterexample for parts ways (the spec side is wrong where TLC says it holds).
   */
  private ReplayReport refuseOrRun(String name, ModelEntry schedule, List<String> scheduleWhy, List<String> modelWhy,
      Driver driver) throws BadInputException, IOException, InterruptedException {
    List<String> why = new ArrayList<>(scheduleWhy);
    modelWhy.stream().filter(w -> !why.contains(w)).forEach(why::add);
    if (!why.isEmpty()) {
      return refused(name, schedule, String.join("; ", why));
    }
    TlcResult r = counterexample(schedule);
    if (r.trace().isEmpty()) {
      return new ReplayReport(name, schedule.name(), ReplayReport.Outcome.PART_WAYS, String.valueOf(r.verdict()),
          "not run", List.of(), (r.verdict().kind() == Verdict.Kind.HOLDS ? JavaReplay.SPEC_WRONG : "")
              + "TLC printed no counterexample for " + schedule.name() + " (" + r.verdict() + ")");
    }
    return driver.run(r, CfgFile.read(cfg(schedule)).invariants());
  }

  private static ReplayReport refused(String name, ModelEntry schedule, String why) {
    return new ReplayReport(name, schedule.name(), ReplayReport.Outcome.NOT_REPLAYABLE, schedule.expected(),
        "not run", List.of(), why);
  }

  /** The model whose counterexample {@code model} replays: itself, or for a fixed twin its bug model ({@link TwinConstants}). */
  ModelEntry scheduleOf(ModelEntry model) throws BadInputException {
    if (model.expectedVerdict().kind() != Verdict.Kind.HOLDS) {
      return model;
    }
    List<ModelEntry> bugs = catalogue.models().stream()
        .filter(m -> model.bug() != null && Objects.equals(m.bug(), model.bug()) && m.module().equals(model.module())
            && m.expectedVerdict().isViolation())
        .toList();
    return bugs.stream().filter(m -> TwinConstants.sameButBugs(cfg(m), cfg(model))).findFirst()
        .or(() -> bugs.stream().findFirst())
        .orElseThrow(() -> new BadInputException(model.name() + " is expected to hold and has no bug twin whose"
            + " counterexample could be replayed"));
  }

  /**
   * TLC's counterexample of {@code schedule}: the one this object already has, else the one the catalogue's
   * last run of it left ({@link CachedCounterexample}: the spec, module and cfg unchanged since), else a new
   * TLC run.
   */
  TlcResult counterexample(ModelEntry schedule) throws BadInputException, IOException, InterruptedException {
    TlcResult r = checked.get(schedule.name());
    if (r == null) {
      r = CachedCounterexample.read(workspace, schedule).orElse(null);
    }
    if (r == null) {
      r = checker.check(schedule);
    }
    checked.put(schedule.name(), r);
    return r;
  }
}
