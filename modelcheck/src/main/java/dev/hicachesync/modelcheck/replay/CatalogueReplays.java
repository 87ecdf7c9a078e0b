package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.Catalogue;
import dev.hicachesync.modelcheck.ModelChecker;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.Tier;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.Workspace;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Replays of catalogue models: a bug model replays its own counterexample; a fixed twin (same bug, same
 * module, expected to hold) replays its bug model's counterexample against the fixed constants.
 */
public final class CatalogueReplays {

  /** The module whose counterexamples the implementation can replay. */
  public static final String MODULE = "MCHiCacheSync";

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

  /** The ci-tier models of {@link #MODULE} that are expected to fail: the catalogued bugs and the knobs. */
  public List<ModelEntry> bugModels() {
    return catalogue.tier(Tier.CI).stream()
        .filter(m -> m.module().equals(MODULE) && m.expectedVerdict().kind() != Verdict.Kind.HOLDS)
        .filter(m -> m.bug() != null || m.name().startsWith("knob_"))
        .toList();
  }

  /** The ci-tier models of {@link UnifiedReplay#MODULE} that are expected to fail (the unified bugs). */
  public List<ModelEntry> unifiedBugModels() {
    return catalogue.tier(Tier.CI).stream()
        .filter(m -> m.module().equals(UnifiedReplay.MODULE) && m.expectedVerdict().kind() != Verdict.Kind.HOLDS)
        .filter(m -> m.bug() != null)
        .toList();
  }

  /** The fixed twin of a bug model: same bug and module, expected to hold. */
  public Optional<ModelEntry> twinOf(ModelEntry bug) {
    return catalogue.models().stream()
        .filter(m -> bug.bug() != null && Objects.equals(m.bug(), bug.bug()) && m.module().equals(bug.module())
            && m.expectedVerdict().kind() == Verdict.Kind.HOLDS)
        .findFirst();
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

  private Path cfg(ModelEntry model) {
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
    if (model.module().equals(UnifiedReplay.MODULE)) {
      return replayUnified(model);
    }
    if (!model.module().equals(MODULE)) {
      return new ReplayReport(name, name, ReplayReport.Outcome.NOT_REPLAYABLE, model.expected(), "not run", List.of(),
          "replays cover " + MODULE + " (one lockstep sync domain); " + model.module() + " has no spec-shaped driver");
    }
    ModelEntry schedule = model;
    if (model.expectedVerdict().kind() == Verdict.Kind.HOLDS) {
      schedule = catalogue.models().stream()
          .filter(m -> model.bug() != null && Objects.equals(m.bug(), model.bug()) && m.module().equals(MODULE)
              && m.expectedVerdict().kind() != Verdict.Kind.HOLDS)
          .findFirst()
          .orElseThrow(() -> new BadInputException(name + " is expected to hold and has no bug twin whose"
              + " counterexample could be replayed"));
    }
    ModelConstants constants = constants(model);
    List<String> why = JavaReplay.unreplayable(constants(schedule));
    why.addAll(JavaReplay.unreplayable(constants).stream().filter(w -> !why.contains(w)).toList());
    if (!why.isEmpty()) {
      return new ReplayReport(name, schedule.name(), ReplayReport.Outcome.NOT_REPLAYABLE, schedule.expected(), "not run",
          List.of(), String.join("; ", why));
    }
    TlcResult r = checked.get(schedule.name());
    if (r == null) {
      r = checker.check(schedule);
      checked.put(schedule.name(), r);
    }
    if (r.trace().isEmpty()) {
      return new ReplayReport(name, schedule.name(), ReplayReport.Outcome.PART_WAYS, String.valueOf(r.verdict()),
          "not run", List.of(), "TLC printed no counterexample for " + schedule.name() + " (" + r.verdict() + ")");
    }
    return JavaReplay.run(name, constants, schedule.name(), r.trace().get(), r.verdict());
  }

  /**
   * Replays a {@code HiCacheUnified} model on the Java {@code unified} controller ({@link UnifiedReplay}): its
   * own counterexample, or for a fixed twin its bug model's.
   */
  private ReplayReport replayUnified(ModelEntry model) throws BadInputException, IOException, InterruptedException {
    ModelEntry schedule = model;
    if (model.expectedVerdict().kind() == Verdict.Kind.HOLDS) {
      schedule = catalogue.models().stream()
          .filter(m -> model.bug() != null && Objects.equals(m.bug(), model.bug()) && m.module().equals(model.module())
              && m.expectedVerdict().kind() != Verdict.Kind.HOLDS)
          .findFirst()
          .orElseThrow(() -> new BadInputException(model.name() + " is expected to hold and has no bug twin whose"
              + " counterexample could be replayed"));
    }
    ModelConstants constants = constants(model);
    ModelConstants scheduleConstants = constants(schedule);
    List<String> why = UnifiedReplay.unreplayable(scheduleConstants);
    why.addAll(UnifiedReplay.unreplayable(constants).stream().filter(w -> !why.contains(w)).toList());
    if (!why.isEmpty()) {
      return new ReplayReport(model.name(), schedule.name(), ReplayReport.Outcome.NOT_REPLAYABLE, schedule.expected(),
          "not run", List.of(), String.join("; ", why));
    }
    TlcResult r = checked.get(schedule.name());
    if (r == null) {
      r = checker.check(schedule);
      checked.put(schedule.name(), r);
    }
    if (r.trace().isEmpty()) {
      return new ReplayReport(model.name(), schedule.name(), ReplayReport.Outcome.PART_WAYS, String.valueOf(r.verdict()),
          "not run", List.of(), "TLC printed no counterexample for " + schedule.name() + " (" + r.verdict() + ")");
    }
    return UnifiedReplay.run(model.name(), constants, schedule.name(), r.trace().get(), r.verdict());
  }
}
