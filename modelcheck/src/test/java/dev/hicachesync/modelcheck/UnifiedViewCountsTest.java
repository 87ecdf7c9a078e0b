package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * HiCacheUnified's RankSymmetryView (the bag of the ranks' views) must keep exactly one state per orbit of the
 * rank permutations, as {@code VIEW OrbitView} (every image of the state) does, and must not merge states
 * where a Knob or a Bug may single out a rank. A view that merges too much still "holds", so only the
 * distinct-state count catches it: each case runs the ad-hoc template's model under both views and compares
 * the counts, at 2 to 4 ranks (three or more: only there can a set forget how often a rank's view occurs).
 */
class UnifiedViewCountsTest {

  @ParameterizedTest(name = "CP {0}, {1}, storage {2}")
  @CsvSource({
      "2, timeout, TRUE",
      "3, wait_complete, TRUE",
      "3, timeout, FALSE",
      "4, timeout, FALSE"})
  void theBagFindsAsManyStatesAsTheOrbit(int cp, String policy, String storage, @TempDir Path dir)
      throws Exception {
    Workspace workspace = Workspace.fromRoot();
    String cfg = adhocCfg(workspace, cp, policy, storage, "{}");
    long view = distinct(workspace, dir, "view", cfg + "\nVIEW RankSymmetryView\n");
    long orbit = distinct(workspace, dir, "orbit", cfg + "\nVIEW OrbitView\n");
    long plain = distinct(workspace, dir, "plain", cfg);
    assertTrue(orbit > 1, "the orbit run found " + orbit + " states");
    assertEquals(orbit, view, "RankSymmetryView vs OrbitView at CP " + cp + ", " + policy + ", storage " + storage);
    assertTrue(view < plain, "the view merges nothing: " + view + " of " + plain);
  }

  /** With a Knob (here the waiting timeout, which reads rank 0's clock) the view is every variable: no merging. */
  @Test
  void aKnobTurnsTheReductionOff(@TempDir Path dir) throws Exception {
    Workspace workspace = Workspace.fromRoot();
    String cfg = adhocCfg(workspace, 2, "timeout", "FALSE", "{\"wait_timeout\"}");
    long view = distinct(workspace, dir, "knob-view", cfg + "\nVIEW RankSymmetryView\n");
    long plain = distinct(workspace, dir, "knob-plain", cfg);
    assertEquals(plain, view);
  }

  /** The ad-hoc model of version unified at CP {@code cp} with {@code knobs}, its invariants only (no PROPERTIES). */
  private static String adhocCfg(Workspace workspace, int cp, String policy, String storage, String knobs)
      throws Exception {
    AdhocModel model = AdhocModel.of(1, cp, 1, 1, "unified", policy, "TRUE".equals(storage) ? "on" : "off", 1);
    String cfg = model.render(Files.readString(workspace.models().resolve(model.module().template())))
        .replace("Knobs = {}", "Knobs = " + knobs);
    int properties = cfg.indexOf("PROPERTIES");
    assertTrue(properties > 0 && cfg.contains("Knobs = " + knobs), cfg);
    return cfg.substring(0, properties);
  }

  private static long distinct(Workspace workspace, Path dir, String name, String cfg) throws Exception {
    return HoldingCfgRun.distinct(workspace, dir, "MCHiCacheUnifiedView", "unified-view-", "-Xmx1g", name, cfg);
  }
}
