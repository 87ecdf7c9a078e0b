package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * HiCacheSync's RankSymmetryView (the set, over the TP permutations, of the bags of CP rows) must
 * keep exactly one state per orbit, as {@code VIEW OrbitView} (every image of the state) does. A
 * view that merges too much still "holds", so only the distinct-state count catches it: each case
 * runs one cfg under both views and compares the counts. CP 3 is there because only with three or
 * more rows can a set of rows forget how often a row occurs ({A, A, B} against {A, B, B}); TP 2
 * because only then do the TP permutations matter.
 */
class SyncViewCountsTest {

  @ParameterizedTest(name = "{0} at CP {1} x TP {2}")
  @CsvSource({
      "b1_fixed, 2, 2",        // B1's write-through and eviction (storage off), CP 2 x TP 2
      "b1_fixed, 3, 1",        // three CP rows
      "b1_fixed, 3, 2"})       // three CP rows of two TP columns: 6 ranks, 12 permutations
  void theViewFindsAsManyStatesAsTheOrbit(String model, int cp, int tp, @TempDir Path dir) throws Exception {
    Workspace workspace = Workspace.fromRoot();
    Path base = workspace.models().resolve("MCHiCacheSync_" + model + ".cfg");
    assertTrue(Files.isRegularFile(base), "no cfg at " + base);
    String cfg = Files.readString(base)
        .replaceFirst("CP = \\d+", "CP = " + cp)
        .replaceFirst("TP = \\d+", "TP = " + tp)
        .replace("VIEW RankSymmetryView", "");
    assertTrue(cfg.contains("CP = " + cp) && cfg.contains("TP = " + tp) && cfg.contains("MCEqualPools"), cfg);
    long view = distinct(workspace, dir, "view", cfg + "\nVIEW RankSymmetryView\n");
    long orbit = distinct(workspace, dir, "orbit", cfg + "\nVIEW OrbitView\n");
    assertTrue(orbit > 1, "the orbit run found " + orbit + " states");
    assertEquals(orbit, view, "RankSymmetryView vs OrbitView on " + model + " at CP " + cp + " x TP " + tp);
  }

  private static long distinct(Workspace workspace, Path dir, String name, String cfg) throws Exception {
    return HoldingCfgRun.distinct(workspace, dir, "MCHiCacheSync", "sync-view-", "-Xmx1g", name, cfg);
  }
}
