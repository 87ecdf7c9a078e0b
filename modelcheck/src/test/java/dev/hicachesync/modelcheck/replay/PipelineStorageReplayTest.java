package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code check --replay} of {@code HiCachePipeline} models with storage on ({@link PipelineReplay}): the
 * counterexample decides each rank's S7 hits ({@code PrefetchThreadQueries}), where its prefetch thread passes, a
 * read in flight ({@code IoStartsBatch}) and the timeout ({@code TimeoutFires}, {@code ControllerEnv.timeoutFires});
 * B7 is fault pp_stage_local_prefetch_hits, B7tail early_tail_release, knob pf_shared_group shared_prefetch_groups.
 */
class PipelineStorageReplayTest {

  static CatalogueReplays replays;

  @BeforeAll
  static void load() throws Exception {
    replays = ReplayTable.replays();
  }

  /**
   * B7: stage 0's storage holds none of key 1's pages, stage 1's one; without the pp group in S7 each stage keeps
   * its own hit: PrefetchAgreement at the S7 after step 0. With the fix the MIN over the stages agrees.
   */
  @Test
  void stagesKeepTheirOwnHitsWithoutThePpGroup() throws Exception {
    ReplayReport bug = replays.replay("b7_hit_cp_tp_only");
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    // Rank 0 and rank 1 are in different stages, which the domain checker compares without their S7 entries (the
    // stages are not in lockstep): the hits that differ are named at S7 by the pp group's collective or, without
    // it, at the next RECV, where the trees they left differ.
    assertTrue(bug.impl().startsWith("PrefetchAgreement at step 1, sync point S7")
        || bug.impl().startsWith("PrefetchAgreement at step 1, sync point RECV"), bug.impl());
    assertTrue(bug.steps().contains("faults: pp_stage_local_prefetch_hits"), bug.steps().toString());
    assertTrue(bug.steps().contains("schedule rank 0 storage hits at S7 (leading pages, in order): [0]"),
        bug.steps().toString());
    assertTrue(bug.steps().contains("schedule rank 1 storage hits at S7 (leading pages, in order): [1]"),
        bug.steps().toString());

    ReplayReport twin = replays.replay("b7_fixed");
    assertEquals(ReplayReport.Outcome.CLEAN, twin.outcome(), twin.render());
    assertEquals("b7_hit_cp_tp_only", twin.schedule());
  }

  /**
   * B7tail: key 1's one-page read is in flight on stage 0 when its prefetch times out; the tail of its host slots
   * is released at the termination, and the next S3 frees the slot the read still writes: HostSlotSafety.
   */
  @Test
  void theTailReleasedAtTerminationIsFreedUnderTheRead() throws Exception {
    ReplayReport bug = replays.replay("b7_tail_released_early");
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.impl().startsWith("HostSlotSafety at step 2"), bug.impl());
    assertTrue(bug.steps().contains("faults: early_tail_release"), bug.steps().toString());
    assertTrue(bug.steps().contains("schedule rank 0 prefetch of request 1 timed out from step 1"),
        bug.steps().toString());
    assertTrue(bug.steps().stream().anyMatch(l -> l.startsWith("step 2 RECV rank 0: spec") && !l.contains("differs")),
        "the states at RECV are compared and equal (the slot past the hit freed on both sides): " + bug.steps());
  }

  /**
   * Knob pf_shared_group: rank 0's prefetch thread posts S7 on the scheduler's group after step 1's RECV, rank
   * 1's scheduler its S123 there first: the two pair up (CollectiveMatching).
   */
  @Test
  void aPrefetchOnTheSchedulersGroupPairsWithAPeersEventCheck() throws Exception {
    ReplayReport bug = replays.replay("pp_knob_pf_shared_group");
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.impl().startsWith("CollectiveMatching at step 1"), bug.impl());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("at S7") && l.contains("at S123")), bug.steps().toString());
  }
}
