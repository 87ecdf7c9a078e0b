package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A symmetry view that merges too much still "holds" (fewer states, no violation), so a verdict
 * cannot catch it: the distinct-state count can. HiCachePipeline's RankSymmetryView shows the set
 * of CP columns where that is exact (one replica, no TP, two CP indices) and the whole orbit
 * otherwise; both must give one state per orbit, i.e. the count recorded with the orbit view and the
 * count of {@code VIEW OrbitView} on the same bounds. {@code b6_fixed_cp2} (PP 2 x CP 2, about 5 s)
 * takes the column branch, its TP 2 twin the orbit branch.
 */
class PipelineViewCountsTest {

  @Test
  void theColumnViewKeepsOneStatePerOrbit() throws Exception {
    Workspace workspace = Workspace.fromRoot();
    assertTrue(Files.isRegularFile(workspace.catalogue()), "no model catalogue at " + workspace.catalogue());
    ModelEntry m = Catalogue.load(workspace.catalogue()).named(List.of("b6_fixed_cp2")).get(0);
    String cfg = Files.readString(workspace.catalogue().resolveSibling(m.cfg()));
    assertTrue(cfg.contains("VIEW RankSymmetryView"), "b6_fixed_cp2 no longer carries the view");
    assertNotNull(m.recorded(), "b6_fixed_cp2 has no recorded figures");
    TlcResult r = new ModelChecker(workspace, new TlcRunner(TlcJar.locate(), ProgressListener.NONE), 1, null, List.of())
        .check(m);
    assertTrue(r.verdict().matches(m.expectedVerdict()), "verdict " + r.verdict() + "; TLC output in " + r.log());
    // 997 with the orbit view (1,783 without a view): the column view must find exactly as many.
    assertEquals(m.recorded().distinct(), r.distinct(), "distinct states of b6_fixed_cp2; TLC output in " + r.log());
  }

  /**
   * The view against the orbit it stands for, on b6_fixed_cp2's bounds: CP 2 (the column branch)
   * and its TP 2 twin (CP 1 x TP 2: the orbit branch, where columns would not be exact).
   */
  @ParameterizedTest
  @CsvSource({"2, 1", "1, 2"})
  void theViewFindsAsManyStatesAsTheOrbit(int cp, int tp, @TempDir Path dir) throws Exception {
    Workspace workspace = Workspace.fromRoot();
    Path base = workspace.models().resolve("MCHiCachePipeline_b6_fixed_cp2.cfg");
    assertTrue(Files.isRegularFile(base), "no cfg at " + base);
    String cfg = Files.readString(base).replace("CP = 2", "CP = " + cp).replace("TP = 1", "TP = " + tp);
    assertTrue(cfg.contains("VIEW RankSymmetryView") && cfg.contains("TP = " + tp), cfg);
    long view = distinct(workspace, dir, "view", cfg);
    long orbit = distinct(workspace, dir, "orbit", cfg.replace("VIEW RankSymmetryView", "VIEW OrbitView"));
    assertTrue(orbit > 1, "the orbit run found " + orbit + " states");
    assertEquals(orbit, view, "RankSymmetryView vs OrbitView at CP " + cp + " x TP " + tp);
  }

  private static long distinct(Workspace workspace, Path dir, String name, String cfg) throws Exception {
    return HoldingCfgRun.distinct(workspace, dir, "MCHiCachePipeline", "pipeline-view-", "-Xmx512m", name, cfg);
  }
}
