package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCHiCacheSync's ReducedSpec (eager scheduler completions fused into rounds; docs/explanation/spec-design.md)
 * must not change a verdict. Every safety row of the ci tier (every third in CI, all with -Dhicache.tests.long=true) is run reduced and must give its
 * catalogued verdict (violations, deadlocks and holds alike), and each that holds with no more states than recorded; the
 * invariants the fusion checks between rounds and right after RECV are load-bearing (a probe that fails only
 * there, one for each); and a
 * committed reduced cfg may list only invariants the fusion checks.
 */
class SyncReductionTest {

  private static final String MODULE = "MCHiCacheSync";
  /** The module with ReducedSpec: MCHiCacheSync and the reduction (a module of its own, see its header). */
  private static final String REDUCED_MODULE = "MCHiCacheSyncReduced";
  /** The invariants ReducedInvariants checks between rounds (HiCacheSyncChecks.tla's ReducedChecks). */
  static final Set<String> CHECKED = Set.of("TypeOK", "CollectiveMatching", "TreeAgreement", "AckAgreement",
      "PrefetchAgreement", "AllocAgreement", "HostSlotSafety", "SidecarCoverage");
  /** ... and those ReducedDebugChecks adds (DebugChecks) where a cfg overrides ReducedAlsoChecks with it. */
  static final Set<String> DEBUG = Set.of("DebugPrefetchRevoked", "DebugLoadBack", "DebugAbortWhileReading",
      "DebugTwoWaiting", "DebugPrefetchInserted");
  static final String DEBUG_OVERRIDE = "ReducedAlsoChecks <- ReducedDebugChecks";

  @Test
  void everyCiSyncRowKeepsItsVerdictReduced(@TempDir Path dir) throws Exception {
    Workspace workspace = Workspace.fromRoot();
    assertTrue(Files.isRegularFile(workspace.catalogue()), "no model catalogue at " + workspace.catalogue());
    List<ModelEntry> rows = Catalogue.load(workspace.catalogue()).tier(Tier.CI).stream()
        .filter(m -> m.module().equals(MODULE) && !m.hasLiveness())
        .toList();
    assertTrue(rows.size() >= 30, "expected HiCacheSync's ci safety rows, found " + rows.size());
    rows = LongTier.sample(rows.stream()).toList(); // every third row in CI, every row in the long tier
    List<Callable<TlcResult>> runs = new ArrayList<>();
    for (ModelEntry m : rows) {
      String cfg = Files.readString(workspace.catalogue().resolveSibling(m.cfg()));
      runs.add(() -> run(workspace, dir, m.name(), reduced(cfg), List.of(), JitChoice.optionsFor(m)));
    }
    List<TlcResult> results = TlcBatch.all(runs);
    List<Executable> checks = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      ModelEntry m = rows.get(i);
      TlcResult r = results.get(i);
      checks.add(() -> assertTrue(r.verdict().matches(m.expectedVerdict()),
          m.name() + " reduced: " + r.verdict() + ", expected " + m.expected() + "; TLC output in " + r.log()));
      // a violation stops the search where it is found, which the order of the reduced search moves:
      // only a model that holds has a state count to compare
      if (m.recorded() != null && m.expectedVerdict().equals(Verdict.HOLDS)) {
        checks.add(() -> assertTrue(r.distinct() <= m.recorded().distinct(),
            m.name() + " reduced found " + r.distinct() + " states, recorded " + m.recorded().distinct()));
      }
    }
    assertAll(checks);
  }

  /** merged_cp2tp2 (CP 2 x TP 2, one request): the probe fails only between two fused rounds. */
  @Test
  void theChecksBetweenRoundsAreLoadBearing(@TempDir Path dir) throws Exception {
    assertProbeIsLoadBearing(dir, "ProbeMidRound", "ProbeAt");
  }

  /** The same for the state right after RECV, which ReducedSpec takes together with the rounds after it. */
  @Test
  void theCheckRightAfterRecvIsLoadBearing(@TempDir Path dir) throws Exception {
    assertProbeIsLoadBearing(dir, "ProbeAfterRecv", "ProbeAfterRecvAt");
  }

  /**
   * {@code invariant} (SyncReductionProbe.tla) is violated with Spec, still violated with ReducedSpec where
   * {@code checkedAs} is among the checks between rounds, and holds where it is not.
   */
  private static void assertProbeIsLoadBearing(Path dir, String invariant, String checkedAs) throws Exception {
    Workspace workspace = Workspace.fromRoot();
    Path base = workspace.models().resolve("MCHiCacheSync_merged_cp2tp2.cfg");
    assertTrue(Files.isRegularFile(base), "no cfg at " + base);
    String constants = CfgFile.read(base)
        .without(CfgFile.Section.INVARIANTS, CfgFile.Section.SPECIFICATION, CfgFile.Section.VIEW).render();
    Path probe = TestSpecs.root().resolve("modelcheck/src/test/resources/reduction");
    String checks = "\nINVARIANT " + invariant + "\nVIEW RankSymmetryView\n";
    List<TlcResult> results = TlcBatch.all(List.of(
        () -> run(workspace, dir, invariant + "-spec", constants + "\nSPECIFICATION Spec" + checks, List.of(probe),
            List.of()),
        () -> run(workspace, dir, invariant + "-checked",
            constants + "\nCONSTANT ReducedAlsoChecks <- " + checkedAs + "\nSPECIFICATION ReducedSpec" + checks,
            List.of(probe), List.of()),
        () -> run(workspace, dir, invariant + "-unchecked",
            constants + "\nSPECIFICATION ReducedSpec" + checks, List.of(probe), List.of())));
    TlcResult full = results.get(0);
    TlcResult checked = results.get(1);
    TlcResult unchecked = results.get(2);
    assertAll(
        () -> assertEquals(Verdict.violates(invariant), full.verdict(), "Spec; TLC output in " + full.log()),
        () -> assertEquals(Verdict.violates(invariant), checked.verdict(),
            "ReducedSpec, the probe checked between rounds; TLC output in " + checked.log()),
        () -> assertEquals(Verdict.HOLDS, unchecked.verdict(),
            "ReducedSpec, the probe not checked between rounds; TLC output in " + unchecked.log()));
  }

  @Test
  void reducedCfgsListOnlyInvariantsTheFusionChecks() throws Exception {
    Workspace workspace = Workspace.fromRoot();
    assertTrue(Files.isDirectory(workspace.models()), "no models at " + workspace.models());
    int reducedCfgs = 0;
    try (Stream<Path> cfgs = Files.list(workspace.models())) {
      for (Path p : cfgs.filter(f -> f.getFileName().toString().startsWith(MODULE + "_")
          && f.getFileName().toString().endsWith(".cfg")).toList()) {
        String text = Files.readString(p);
        CfgFile cfg = CfgFile.read(p);
        if (!CfgFile.REDUCED_SPEC.equals(cfg.specification())) {
          continue;
        }
        reducedCfgs++;
        for (String inv : cfg.invariants()) {
          boolean checked = CHECKED.contains(inv) || (DEBUG.contains(inv) && text.contains(DEBUG_OVERRIDE));
          assertTrue(checked, p.getFileName() + ": " + inv + " is not checked between ReducedSpec's rounds");
        }
      }
    }
    assertTrue(reducedCfgs >= 1, "no MCHiCacheSync cfg uses ReducedSpec");
  }

  /**
   * NextFusingRecv (MCHiCacheSyncReduced.tla) is HiCacheSync's Next with SomeCollectiveCompletes written out and
   * SchedRecvRequests replaced by RecvThenRounds: a completion added to the spec must be added there too, or the
   * reduced search would silently skip it.
   */
  @Test
  void nextFusingRecvTakesEveryOtherStepOfNext() throws IOException {
    Workspace workspace = Workspace.fromRoot();
    String spec = Files.readString(workspace.spec().resolve("HiCacheSync.tla"));
    String reduced = Files.readString(workspace.models().resolve(REDUCED_MODULE + ".tla"));
    List<String> completions = TlaDefinitions.disjuncts(spec, "SomeCollectiveCompletes");
    List<String> next = TlaDefinitions.disjuncts(spec, "Next");
    List<String> expected = new ArrayList<>(List.of("RecvThenRounds"));
    completions.stream().filter(a -> !a.equals("SchedRecvRequests")).forEach(expected::add);
    next.stream().filter(a -> !a.equals("SomeCollectiveCompletes")).forEach(expected::add);
    assertTrue(completions.contains("SchedRecvRequests") && next.contains("SomeCollectiveCompletes"),
        "HiCacheSync.tla: " + completions + " / " + next);
    assertEquals(expected, TlaDefinitions.disjuncts(reduced, "NextFusingRecv"));
  }

  /** The sets this test holds are the conjunctions HiCacheSyncChecks.tla checks between rounds. */
  @Test
  void theCheckedSetsAreHiCacheSyncChecksConjunctions() throws IOException {
    String checks = Files.readString(Workspace.fromRoot().models().resolve("HiCacheSyncChecks.tla"));
    assertEquals(CHECKED, Set.copyOf(TlaDefinitions.conjuncts(checks, "ReducedChecks")));
    assertEquals(DEBUG, Set.copyOf(TlaDefinitions.conjuncts(checks, "DebugChecks")));
  }

  /**
   * The reduction stays out of MCHiCacheSync: an INSTANCE there (ReducedSpec's Mid had one) made TLC
   * spend about twice as long on every state of every model of the module, Spec included.
   */
  @Test
  void mcHiCacheSyncHoldsNoInstance() throws IOException {
    Workspace workspace = Workspace.fromRoot();
    Path mc = workspace.models().resolve(MODULE + ".tla");
    assertTrue(Files.isRegularFile(mc), "no " + mc);
    List<String> instances = Files.readAllLines(mc).stream()
        .map(line -> line.replaceFirst("\\\\\\*.*", "")) // drop \* comments
        .filter(line -> line.contains("INSTANCE"))
        .toList();
    assertEquals(List.of(), instances, MODULE + ".tla: keep instances in " + REDUCED_MODULE + ".tla");
  }

  /** The cfg with SPECIFICATION ReducedSpec (its view kept), and the debug checks where it lists one. */
  static String reduced(String cfg) throws BadInputException {
    assertTrue(cfg.contains("SPECIFICATION Spec\n"), "cfg without SPECIFICATION Spec:\n" + cfg);
    String out = cfg.replace("SPECIFICATION Spec\n", "SPECIFICATION ReducedSpec\n");
    if (CfgText.parse(cfg).invariants().stream().anyMatch(DEBUG::contains)) {
      out = out + "\nCONSTANT " + DEBUG_OVERRIDE + "\n";
    }
    return out;
  }

  /** {@code jit}: the row's {@link JitChoice} (C1 only for a small model: speed only, same states). */
  private static TlcResult run(Workspace workspace, Path dir, String name, String cfg, List<Path> more,
      List<String> jit) throws Exception {
    Path file = dir.resolve(name + ".cfg");
    Files.writeString(file, cfg);
    List<Path> dirs = new ArrayList<>(List.of(workspace.spec(), workspace.models()));
    dirs.addAll(more);
    String module = more.isEmpty() ? REDUCED_MODULE : "SyncReductionProbe";
    TlcJob job = new TlcJob("sync-reduced-" + name, module, file, dirs, dir, 1, Duration.ofMinutes(5),
        TlcBatch.jvmOptions(jit));
    return new TlcRunner(TlcJar.locate(), ProgressListener.NONE, TlcBatch.RESIDENT).run(job);
  }
}
