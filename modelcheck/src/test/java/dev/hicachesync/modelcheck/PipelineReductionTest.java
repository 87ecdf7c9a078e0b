package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * HiCachePipeline's ReducedSpec with LiveSymmetryView (docs/explanation/spec-design.md) must not change
 * a verdict: a reduction that hides a bug is worse than none. Every ci row of the pipeline catalogue
 * (violations, deadlocks and holds alike) is run reduced and must give its catalogued verdict with no
 * more states than recorded; the bug knobs B7tail and B7 on the four ranks of b7_fixed_cp2's cfg (reduced as
 * committed; where the reduction removes the most) must still be caught; and no cfg may pair ReducedSpec (no fairness, an
 * ample-set reduction: safety only) with temporal properties.
 */
class PipelineReductionTest {

  private static final String MODULE = "MCHiCachePipeline";

  @Test
  void everyCiPipelineRowKeepsItsVerdictReduced(@TempDir Path dir) throws Exception {
    Workspace workspace = Workspace.fromRoot();
    assertTrue(Files.isRegularFile(workspace.catalogue()), "no model catalogue at " + workspace.catalogue());
    List<ModelEntry> rows = Catalogue.load(workspace.catalogue()).tier(Tier.CI).stream()
        .filter(m -> m.module().equals(MODULE) && !m.hasLiveness())
        .toList();
    assertTrue(rows.size() >= 10, "expected the pipeline's ci rows, found " + rows.size());
    rows = LongTier.sample(rows.stream()).toList(); // every third row in CI, every row in the long tier
    List<Callable<TlcResult>> runs = new ArrayList<>();
    for (ModelEntry m : rows) {
      String cfg = Files.readString(workspace.catalogue().resolveSibling(m.cfg()));
      runs.add(() -> run(workspace, dir, m.name(), reduced(cfg), JitChoice.optionsFor(m)));
    }
    List<TlcResult> results = TlcBatch.all(runs);
    List<Executable> checks = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      ModelEntry m = rows.get(i);
      TlcResult r = results.get(i);
      checks.add(() -> assertTrue(r.verdict().matches(m.expectedVerdict()),
          m.name() + " reduced: " + r.verdict() + ", expected " + m.expected() + "; TLC output in " + r.log()));
      if (m.recorded() != null) {
        checks.add(() -> assertTrue(r.distinct() <= m.recorded().distinct(),
            m.name() + " reduced found " + r.distinct() + " states, recorded " + m.recorded().distinct()));
      }
    }
    assertAll(checks);
  }

  /** The bug knobs on four ranks (PP 2 x CP 2), where eager storage steps and timeouts interleave most. */
  @ParameterizedTest
  @CsvSource({"B7tail, HostSlotSafety", "B7, HostSlotSafety"})
  void bugKnobsAreCaughtReducedOnFourRanks(String bug, String invariant, @TempDir Path dir) throws Exception {
    Workspace workspace = Workspace.fromRoot();
    Path base = workspace.models().resolve("MCHiCachePipeline_b7_fixed_cp2.cfg");
    assertTrue(Files.isRegularFile(base), "no cfg at " + base);
    String cfg = Files.readString(base);
    // the catalogue row's own cfg, reduced as committed, with one bug knob on
    assertTrue(cfg.contains("SPECIFICATION ReducedSpec") && cfg.contains("VIEW LiveSymmetryView"),
        "b7_fixed_cp2 is no longer the reduced model");
    assertTrue(cfg.contains("Bugs = {}"), "b7_fixed_cp2 no longer has Bugs = {}");
    TlcResult r = run(workspace, dir, "knob-" + bug, cfg.replace("Bugs = {}", "Bugs = {\"" + bug + "\"}"), List.of());
    assertEquals(Verdict.violates(invariant), r.verdict(), bug + " reduced; TLC output in " + r.log());
  }

  /**
   * Timeouts are fired only just before the step that reads them; with CP 2 that step is the
   * completion of the last sync call (with CP 1, StepBegins), a branch the ci rows do not reach. A
   * prefetch terminated before its final batch ack needs a timeout: reduced, it must still happen.
   */
  @Test
  void timeoutsStillFireReducedWithCp2(@TempDir Path dir) throws Exception {
    Workspace workspace = Workspace.fromRoot();
    Path base = workspace.models().resolve("MCHiCachePipeline_pp_debug_tail_after_final_ack.cfg");
    assertTrue(Files.isRegularFile(base), "no cfg at " + base);
    String cfg = Files.readString(base);
    assertTrue(cfg.contains("CP = 1") && cfg.contains("PagesPerKey <- MCPages2")
        && cfg.contains("Policy = \"timeout\""), cfg);
    // one page (one batch) keeps four ranks small: about 33,000 states reduced
    TlcResult r = run(workspace, dir, "timeout-cp2",
        reduced(cfg.replace("CP = 1", "CP = 2").replace("PagesPerKey <- MCPages2", "PagesPerKey <- MCPages1")),
        List.of());
    assertEquals(Verdict.violates("DebugTailAfterFinalAck"), r.verdict(), "TLC output in " + r.log());
  }

  @Test
  void noCfgPairsTheReducedSpecWithTemporalProperties() throws IOException {
    Workspace workspace = Workspace.fromRoot();
    assertTrue(Files.isDirectory(workspace.models()), "no models at " + workspace.models());
    try (Stream<Path> cfgs = Files.list(workspace.models())) {
      for (Path p : cfgs.filter(f -> f.getFileName().toString().endsWith(".cfg")).toList()) {
        String cfg = Files.readString(p);
        if (cfg.contains("SPECIFICATION ReducedSpec")) {
          assertFalse(cfg.contains("PROPERTIES") || cfg.contains("PROPERTY"),
              p.getFileName() + ": ReducedSpec is for safety only");
        }
      }
    }
  }

  /** The cfg with the reduction on: ReducedSpec, and LiveSymmetryView in place of any view. */
  static String reduced(String cfg) {
    assertTrue(cfg.contains("SPECIFICATION Spec\n"), "cfg without SPECIFICATION Spec:\n" + cfg);
    StringBuilder out = new StringBuilder();
    for (String line : cfg.split("\n", -1)) {
      if (line.startsWith("VIEW ")) {
        continue;
      }
      if (line.equals("SPECIFICATION Spec")) {
        out.append("SPECIFICATION ReducedSpec\nVIEW LiveSymmetryView\n");
        continue;
      }
      out.append(line).append('\n');
    }
    return out.toString();
  }

  /** {@code jit}: the row's {@link JitChoice} (C1 only for a small model: speed only, same states). */
  private static TlcResult run(Workspace workspace, Path dir, String name, String cfg, List<String> jit)
      throws Exception {
    Path file = dir.resolve(name + ".cfg");
    Files.writeString(file, cfg);
    TlcJob job = new TlcJob("pipeline-reduced-" + name, MODULE, file,
        List.of(workspace.spec(), workspace.models()), dir, 1, Duration.ofMinutes(5), TlcBatch.jvmOptions(jit));
    return new TlcRunner(TlcJar.locate(), ProgressListener.NONE, TlcBatch.RESIDENT).run(job);
  }
}
