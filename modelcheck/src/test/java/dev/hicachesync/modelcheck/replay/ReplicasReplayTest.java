package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code check --replay} of {@code HiCacheReplicas} models (attention DP &gt; 1, {@link ReplicasReplay}): each bug
 * reaches the spec's violation through the production switch it is about (the start-up group creation order,
 * the cache group's span, the storage writer election), at the spec's step, and its fixed twin runs the same
 * schedule clean. Every HiCacheReplicas row of the committed table ({@code docs/reference/replays.md}) has its
 * outcome.
 */
class ReplicasReplayTest {

  static CatalogueReplays replays;

  @BeforeAll
  static void load() throws Exception {
    replays = ReplayTable.replays();
  }

  @TestFactory
  Stream<DynamicTest> everyReplicasReplayHasItsCommittedOutcome() {
    return ReplayTable.rows().stream().filter(r -> r.module().equals("HiCacheReplicas"))
        .map(row -> DynamicTest.dynamicTest(row.model() + ": " + row.outcome(), () -> ReplayTable.check(replays, row)));
  }

  /**
   * B16 (#15805): each rank creates only its own groups, so the first new_group call names [0] on rank 0 and [1]
   * on rank 1: the spec deadlocks in its initial state, the implementation's world collective fails by mismatch
   * at start-up (GroupCreation.create). Sorted creation of every group (the fix) passes start-up.
   */
  @Test
  void ownGroupsCreationMismatchesAtStartUp() throws Exception {
    ReplayReport bug = replays.replay("b16_group_creation_order");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("deadlock") && bug.spec().endsWith("start-up"), bug.spec());
    assertTrue(bug.impl().startsWith("CollectiveMatching at start-up"), bug.impl());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("new_group[0]") && l.contains("new_group[1]")),
        bug.steps().toString());
  }

  /**
   * B2 (#7158): the cache group is the tp group spanning both replicas; replica 0 has two requests, replica 1
   * none and idles, so replica 0's S1 waits for ranks 2 and 3 (the fabric's timeout, CollectiveMatching) at step
   * 0, where the spec deadlocks. With attn_cp then attn_tp (the fix) replica 0 runs alone.
   */
  @Test
  void aCacheGroupSpanningReplicasWaitsForTheIdleOne() throws Exception {
    ReplayReport bug = replays.replay("b2_cache_group_spans_replicas");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.impl().startsWith("CollectiveMatching at step 0"), bug.impl());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("sched_tp[0,1,2,3]") && l.contains("missing rank(s) 2,3")),
        bug.steps().toString());
  }

  /**
   * B13 (#37149): the global tp rank 0 is the only storage writer, so key 1's CP shard 1 is never written; once
   * its backup is done (every rank popped its ack, rank 0's write landed at step 2's start) StorageShardCoverage
   * fails at step 2, as the spec's does. The attn_tp0 election (the fix) writes both shards.
   */
  @Test
  void aGlobalTp0WriterLeavesACpShardUnwritten() throws Exception {
    ReplayReport bug = replays.replay("b13_writer_global_tp0");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("violates StorageShardCoverage") && bug.spec().endsWith("step 2"), bug.spec());
    assertTrue(bug.impl().startsWith("StorageShardCoverage at step 2"), bug.impl());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("rank 0 storage writes (key=step they land) {1=2}")),
        bug.steps().toString());
  }
}
