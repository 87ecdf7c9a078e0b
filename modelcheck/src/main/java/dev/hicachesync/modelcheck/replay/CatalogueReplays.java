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
  static final Map<String, String> NO_DRIVER = Map.of(
      "MCHiCacheUnifiedPP", "HiCacheUnifiedPP (PD prefill with stages, admission per stage) has no replay driver:"
          + " it abstracts the stages to two one-rank counters without collectives, and its actions Bootstrapped (a"
          + " request's KV bootstrap completes), Stage0Step and Stage1Step (the bootstrap consensus ring,"
          + " _pp_pd_get_bootstrapped_ids, that puts the request in each stage's waiting queue) and AckArrives (the"
          + " final ack on every stage at one moment) have no counterpart in the implementation, which has no PD"
          + " bootstrap queue: a request reaches every stage's waiting queue at the domain's RECV");

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
    if (MonitorReplay.BASE.containsKey(model.module())) { // a monitor rides on its base module's driver
      return MonitorReplay.replay(this, catalogue, workspace, checker, model);
    }
    ModelEntry schedule = scheduleOf(model);
    String noDriver = NO_DRIVER.get(model.module());
    if (model.module().equals(PipelineReplay.MODULE)) {
      return replayPipeline(name, model, schedule);
    }
    if (noDriver != null || !(model.module().equals(MODULE) || model.module().equals(UnifiedReplay.MODULE)
        || model.module().equals(UnifiedPipelineReplay.MODULE) || model.module().equals(ReplicasReplay.MODULE))) {
      return new ReplayReport(name, schedule.name(), ReplayReport.Outcome.NOT_REPLAYABLE, schedule.expected(),
          "not run", List.of(), noDriver != null ? noDriver : model.module() + " has no replay driver");
    }
    if (model.module().equals(UnifiedPipelineReplay.MODULE)) {
      return pipeline(name, schedule, ModelConstants.readUnifiedPipeline(cfg(model), module(model), workspace.spec()));
    }
    if (model.module().equals(ReplicasReplay.MODULE)) {
      return replicas(model, schedule);
    }
    boolean unified = model.module().equals(UnifiedReplay.MODULE);
    ModelConstants constants = constants(model);
    ModelConstants scheduleConstants = constants(schedule);
    List<String> why = new ArrayList<>(unified ? UnifiedReplay.unreplayable(scheduleConstants)
        : JavaReplay.unreplayable(scheduleConstants));
    for (String w : unified ? UnifiedReplay.unreplayable(constants) : JavaReplay.unreplayable(constants)) {
      if (!why.contains(w)) {
        why.add(w);
      }
    }
    if (!why.isEmpty()) {
      return new ReplayReport(name, schedule.name(), ReplayReport.Outcome.NOT_REPLAYABLE, schedule.expected(),
          "not run", List.of(), String.join("; ", why));
    }
    TlcResult r = counterexample(schedule);
    if (r.trace().isEmpty()) {
      return new ReplayReport(name, schedule.name(), ReplayReport.Outcome.PART_WAYS, String.valueOf(r.verdict()),
          "not run", List.of(), (r.verdict().kind() == Verdict.Kind.HOLDS ? JavaReplay.SPEC_WRONG : "")
              + "TLC printed no counterexample for " + schedule.name() + " (" + r.verdict() + ")");
    }
    List<String> invariants = CfgFile.read(cfg(schedule)).invariants();
    return unified
        ? UnifiedReplay.run(name, constants, schedule.name(), r.trace().get(), r.verdict(), invariants)
        : JavaReplay.run(name, constants, schedule.name(), r.trace().get(), r.verdict(), invariants);
  }

  /** {@link #replay} of a {@link PipelineReplay#MODULE} model: refused from its constants, or replayed. */
  private ReplayReport replayPipeline(String name, ModelEntry model, ModelEntry schedule)
      throws BadInputException, IOException, InterruptedException {
    // the schedule's constants under the model's sync mode: a fixed twin runs its own (the bug's mode is no choice
    // of the counterexample, only the groups it reduces over)
    String ppSync = PipelineReplay.ppSync(cfg(model));
    List<String> why = new ArrayList<>(PipelineReplay.unreplayable(constants(schedule), ppSync));
    PipelineReplay.unreplayable(constants(model), ppSync).stream().filter(w -> !why.contains(w)).forEach(why::add);
    if (!why.isEmpty()) {
      return new ReplayReport(name, schedule.name(), ReplayReport.Outcome.NOT_REPLAYABLE, schedule.expected(),
          "not run", List.of(), String.join("; ", why));
    }
    TlcResult r = counterexample(schedule);
    if (r.trace().isEmpty()) {
      return new ReplayReport(name, schedule.name(), ReplayReport.Outcome.PART_WAYS, String.valueOf(r.verdict()),
          "not run", List.of(), "TLC printed no counterexample for " + schedule.name() + " (" + r.verdict() + ")");
    }
    return PipelineReplay.run(name, constants(model), ppSync, schedule.name(), r.trace().get(), r.verdict(),
        CfgFile.read(cfg(schedule)).invariants());
  }

  /**
   * Replays {@code name}, a {@link UnifiedPipelineReplay#MODULE} model with constants {@code c}, on {@code
   * schedule}'s counterexample; refused from the constants (its own and its schedule's) before TLC runs.
   */
  private ReplayReport pipeline(String name, ModelEntry schedule, UnifiedPipelineReplay.Constants c)
      throws BadInputException, IOException, InterruptedException {
    List<String> why = new ArrayList<>(UnifiedPipelineReplay.unreplayable(schedule.name().equals(name) ? c
        : ModelConstants.readUnifiedPipeline(cfg(schedule), module(schedule), workspace.spec())));
    UnifiedPipelineReplay.unreplayable(c).stream().filter(w -> !why.contains(w)).forEach(why::add);
    if (!why.isEmpty()) {
      return new ReplayReport(name, schedule.name(), ReplayReport.Outcome.NOT_REPLAYABLE, schedule.expected(),
          "not run", List.of(), String.join("; ", why));
    }
    TlcResult r = counterexample(schedule);
    if (r.trace().isEmpty()) {
      return new ReplayReport(name, schedule.name(), ReplayReport.Outcome.PART_WAYS, String.valueOf(r.verdict()),
          "not run", List.of(), "TLC printed no counterexample for " + schedule.name() + " (" + r.verdict() + ")");
    }
    return UnifiedPipelineReplay.run(name, c, schedule.name(), r.trace().get(), r.verdict(),
        CfgFile.read(cfg(schedule)).invariants());
  }

  /** The model whose counterexample {@code model} replays: itself, or for a fixed twin its bug model. */
  ModelEntry scheduleOf(ModelEntry model) throws BadInputException {
    if (model.expectedVerdict().kind() != Verdict.Kind.HOLDS) {
      return model;
    }
    return catalogue.models().stream()
        .filter(m -> model.bug() != null && Objects.equals(m.bug(), model.bug()) && m.module().equals(model.module())
            && m.expectedVerdict().isViolation())
        .findFirst()
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

  /** A {@code HiCacheReplicas} model's replay ({@link ReplicasReplay}). */
  private ReplayReport replicas(ModelEntry model, ModelEntry schedule)
      throws BadInputException, IOException, InterruptedException {
    Map<String, dev.hicachesync.modelcheck.value.TlaValue> k = ModelConstants.values(cfg(model), module(model),
        workspace.spec(), ReplicasReplay.CONSTANTS);
    TlcResult r = counterexample(schedule);
    if (r.trace().isEmpty()) {
      return new ReplayReport(model.name(), schedule.name(), ReplayReport.Outcome.PART_WAYS,
          String.valueOf(r.verdict()), "not run", List.of(), (r.verdict().kind() == Verdict.Kind.HOLDS
              ? JavaReplay.SPEC_WRONG : "") + "TLC printed no counterexample for " + schedule.name() + " (" + r.verdict()
              + ")");
    }
    return ReplicasReplay.run(model.name(), k, schedule.name(), r.trace().get(), r.verdict(),
        CfgFile.read(cfg(schedule)).invariants());
  }
}
