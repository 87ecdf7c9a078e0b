package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.Catalogue;
import dev.hicachesync.modelcheck.ModelChecker;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.ProgressListener;
import dev.hicachesync.modelcheck.TlcJar;
import dev.hicachesync.modelcheck.TlcRunner;
import dev.hicachesync.modelcheck.Workspace;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every bug model of the ci tier of {@code HiCacheSync.tla} replayed on the implementation: the bug's
 * counterexample must make the implementation break the same invariant at the same step, and the same
 * schedule must run clean against the fixed twin. A model whose counterexample cannot be replayed is
 * skipped with the reason, which names the action or switch the implementation has no seam for.
 */
class JavaReplayTest {

  @TestFactory
  Stream<DynamicTest> ciBugModelsReplayOnTheImplementation() throws Exception {
    Workspace workspace = Workspace.fromRoot();
    assertTrue(Files.isRegularFile(workspace.catalogue()), "no model catalogue");
    Catalogue catalogue = Catalogue.load(workspace.catalogue());
    ModelChecker checker = new ModelChecker(workspace, new TlcRunner(TlcJar.locate(), ProgressListener.NONE), 1, null,
        List.of());
    CatalogueReplays replays = new CatalogueReplays(workspace, catalogue, checker);
    List<ModelEntry> bugs = replays.bugModels();
    assertFalse(bugs.isEmpty(), "the ci tier has no HiCacheSync bug model");
    List<DynamicTest> tests = new ArrayList<>();
    for (ModelEntry bug : bugs) {
      tests.add(DynamicTest.dynamicTest(bug.name() + " (" + bug.expected() + ")", () -> {
        ReplayReport r = replays.replay(bug.name());
        System.out.print(r.render());
        Assumptions.assumeFalse(r.outcome() == ReplayReport.Outcome.NOT_REPLAYABLE, bug.name() + ": " + r.detail());
        assertEquals(ReplayReport.Outcome.SAME_VIOLATION, r.outcome(), r.render());
      }));
      replays.twinOf(bug).ifPresent(twin -> tests.add(DynamicTest.dynamicTest(
          twin.name() + " runs " + bug.name() + "'s schedule clean", () -> {
            ReplayReport r = replays.replay(twin.name());
            System.out.print(r.render());
            Assumptions.assumeFalse(r.outcome() == ReplayReport.Outcome.NOT_REPLAYABLE, twin.name() + ": " + r.detail());
            assertEquals(ReplayReport.Outcome.CLEAN, r.outcome(), r.render());
            assertTrue(r.steps().stream().anyMatch(l -> l.contains(" RECV rank ")), "the replay compared the ranks at RECV");
          })));
    }
    return tests.stream();
  }
}
