package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code RankSymmetryView} (MCHiCacheSync.tla) labels each rank's local view by its position in
 * the list of distinct local views and keeps one key of the permuted labels, instead of building
 * every permutation's image of the state ({@code RankSymmetryViewByImages}, the first form). Both
 * must give one state per orbit: a label or key that merged two orbits would drop states (unsound),
 * one that split an orbit would keep more. So real TLC checks one catalogue model under each view
 * and the two must find the same distinct states at the same depth, fewer than without a view.
 */
class RankSymmetryViewExactTest {

  /** A catalogue model with the view, 4 permutations, about a second of TLC under C1. */
  private static final String MODEL = "MCHiCacheSync_merged_cp2tp2.cfg";
  /** Its distinct states without a view (catalogue row {@code merged_cp2tp2}, field reduction). */
  private static final long WITHOUT_VIEW = 4_570;

  private static TlcResult check(Workspace ws, String name, String cfgText) throws Exception {
    Path dir = ws.work().resolve("view-exact");
    Files.createDirectories(dir);
    Path cfg = dir.resolve(name + ".cfg");
    Files.writeString(cfg, cfgText);
    TlcJob job = new TlcJob("view-exact-" + name, "MCHiCacheSync", cfg, List.of(ws.spec(), ws.models()), ws.work(),
        1, Duration.ofMinutes(10), List.of("-Xmx512m", JitChoice.C1_ONLY));
    return new TlcRunner(TlcJar.locate(), ProgressListener.NONE).run(job);
  }

  @Test
  void labelledViewFindsExactlyTheOrbitsTheImageViewFinds() throws Exception {
    Workspace ws = Workspace.fromRoot();
    Path cfg = ws.models().resolve(MODEL);
    assumeTrue(Files.isRegularFile(cfg), "no model " + cfg);
    String text = Files.readString(cfg);
    assertTrue(text.contains("\nVIEW RankSymmetryView\n") || text.endsWith("\nVIEW RankSymmetryView"),
        MODEL + " no longer uses the view");

    TlcResult labelled = check(ws, "labelled", text);
    TlcResult images = check(ws, "images", text.replace("VIEW RankSymmetryView", "VIEW RankSymmetryViewByImages"));

    assertTrue(images.verdict().matches(Verdict.HOLDS), images.verdict() + ": " + images.message() + "; TLC output in " + images.log());
    assertTrue(labelled.verdict().matches(Verdict.HOLDS), labelled.verdict() + ": " + labelled.message() + "; TLC output in " + labelled.log());
    assertTrue(images.distinct() < WITHOUT_VIEW, "the image view reduced nothing: " + images.distinct());
    assertEquals(images.distinct(), labelled.distinct(),
        "RankSymmetryView and RankSymmetryViewByImages disagree on the number of orbits; TLC output in "
            + labelled.log());
    assertEquals(images.depth(), labelled.depth(), "the two views disagree on the depth");
  }
}
