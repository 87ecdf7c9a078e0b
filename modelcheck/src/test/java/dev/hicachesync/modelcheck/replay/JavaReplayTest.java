package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.hicachesync.modelcheck.ModelEntry;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every replay {@code check --replay} covers, outside {@code HiCacheUnified} ({@link UnifiedReplayTest}), the
 * unified pipeline modules ({@link UnifiedPipelineReplayTest}) and {@code HiCacheReplicas}
 * ({@link ReplicasReplayTest}), has
 * the outcome the committed table ({@code docs/reference/replays.md}) gives it: a bug model reproduced (the
 * implementation breaks the spec's invariant, by name, at the same step), its fixed twin clean on the same
 * schedule, or the exact disagreement or reason it is not replayable. The table lists exactly the models the
 * replays cover: each ci bug model of every module and its fixed twin.
 */
class JavaReplayTest {

  @Test
  void theTableListsEveryBugModelAndTwinInCatalogueOrder() throws Exception {
    List<String> covered = ReplayTable.replays().replayed().stream().map(ModelEntry::name).toList();
    assertFalse(covered.isEmpty(), "the catalogue has no ci bug model");
    assertEquals(covered, ReplayTable.rows().stream().map(ReplayTable.Row::model).toList(),
        "the rows of " + ReplayTable.FILE + " are not the models check --replay covers");
  }

  @TestFactory
  Stream<DynamicTest> everyReplayHasItsCommittedOutcome() throws Exception {
    CatalogueReplays replays = ReplayTable.replays();
    return ReplayTable.rows().stream().filter(r -> !r.module().equals("HiCacheUnified")
            && !UnifiedPipelineReplayTest.MODULES.contains(r.module())
            && !r.module().equals("HiCacheReplicas")) // ReplicasReplayTest
        .map(row -> DynamicTest.dynamicTest(row.model() + ": " + row.outcome(), () -> ReplayTable.check(replays, row)));
  }
}
