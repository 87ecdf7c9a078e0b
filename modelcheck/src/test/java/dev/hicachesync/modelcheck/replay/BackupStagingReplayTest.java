package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.CfgFile;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.Workspace;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code check --replay} of the unified models whose counterexamples need the storage backups the spec queues
 * at each admission (knob {@code backup}: the fault {@code backup_at_admission}, seam {@code
 * CacheController#backupAtInsert}; knob {@code buffer_only}: write staging through the host pool, fault {@code
 * buffer_write_staging}, seam {@code CacheController#stageWritesInHostBuffer}), each backup thread's acks placed by
 * the schedule's {@code BackupOk}; and the unified pipeline model whose stages' S123 vectors differ in length
 * (knob {@code stage_extra_pools}: the fault {@code stage_extra_pools}, seam {@code
 * CacheController#extraHostMemReleaseQueues}). The rows themselves are checked with the others of their module
 * ({@link UnifiedPipelineReplayTest}, {@link UnifiedReplayTest}).
 */
class BackupStagingReplayTest {

  static CatalogueReplays replays;

  @BeforeAll
  static void load() throws Exception {
    replays = ReplayTable.replays();
  }

  /**
   * Finding F2's widest window (bug NOWAIT, knobs backup and threads_sync): both stages admit request 1 at step 1
   * and queue its backup; stage 0's backup thread acks before its step-2 event check, stage 1's only after the
   * trace, so stage 1 drains stage 0's forwarded backup count cut to nothing (get_nowait) and the popped counts
   * part at step 2 (AckAgreement). The blocking drain waits for stage 1's own ack on the same schedule: clean.
   */
  @Test
  void aBackupAckedOnOneStageOnlyPartsThePoppedCountsUnderTheNowaitDrain() throws Exception {
    ReplayReport bug = replays.replay("unipp_forwarded_nowait_backup");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("violates AckAgreement") && bug.spec().endsWith("step 2"), bug.spec());
    assertTrue(bug.impl().startsWith("AckAgreement") && bug.impl().contains("at step 2"), bug.impl());
    assertTrue(bug.steps().contains("schedule rank 0 backup thread acks a backup before the event check of step 2"),
        bug.steps().toString());
    assertTrue(bug.steps().stream().anyMatch(l -> l.startsWith("implementation: ") && l.contains("backup 1")),
        "stage 0 popped its backup ack: " + bug.steps());

    ReplayReport twin = replays.replay("unipp_forwarded_blocking_backup");
    System.out.print(twin.render());
    assertEquals("unipp_forwarded_nowait_backup", twin.schedule());
    assertEquals(ReplayReport.Outcome.CLEAN, twin.outcome(), twin.render());
  }

  /**
   * Bug STAGE_LOCAL under buffer-only host memory (CP 2, one host page): request 1's backup intent is staged after
   * step 1's drains on both ranks; rank 0's backup thread acks it before step 2's RECV and frees the staging page
   * there, rank 1's never within the trace: the free pools part at step 2's RECV (AllocAgreement at the spec's
   * lockstep point). The fix (the page freed at the synced drain of the ack) runs the same schedule clean.
   */
  @Test
  void aStagingPageFreedOnTheBackupThreadPartsThePoolsAndTheSyncedDrainRunsClean() throws Exception {
    ReplayReport bug = replays.replay("unified_buffer_stage_local");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("violates AllocAgreement"), bug.spec());
    assertTrue(bug.impl().startsWith("AllocAgreement at step 2, sync point RECV"), bug.impl());
    assertTrue(bug.steps().contains("schedule rank 0 backup thread acks its backups at the start of steps [2]"),
        bug.steps().toString());

    ModelEntry model = replays.bugModels(UnifiedReplay.MODULE).stream()
        .filter(m -> m.name().equals("unified_buffer_stage_local")).findFirst().orElseThrow();
    ModelConstants k = replays.constants(model);
    TlcResult cx = replays.counterexample(model);
    List<String> invariants = CfgFile.read(replays.cfg(model)).invariants();
    ReplayReport fixed = UnifiedReplay.run("unified_buffer_stage_local with the synced drain", k.with(k.version(),
        Set.of()), model.name(), cx.trace().get(), cx.verdict(), invariants);
    System.out.print(fixed.render());
    assertEquals(ReplayReport.Outcome.CLEAN, fixed.outcome(), fixed.render());
  }

  /**
   * Knob stage_extra_pools: stage 0's rank has an extra host pool, so its S123 vector has one entry more than the
   * one stage 1 receives the forwarded counts into: stage 1's receive names PipeMatching at step 0's event check,
   * where the spec's message reaches its channel. The padded layout (knob pad_pools, {@code
   * unipp_stage_extra_pools_padded}) runs the same schedule clean.
   */
  @Test
  void anExtraPoolOnStageZeroLengthensTheForwardedVectorAndPaddingRunsClean() throws Exception {
    ReplayReport bug = replays.replay("unipp_knob_stage_extra_pools");
    System.out.print(bug.render());
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, bug.outcome(), bug.render());
    assertTrue(bug.spec().startsWith("violates PipeMatching") && bug.spec().endsWith("step 0"), bug.spec());
    assertTrue(bug.impl().startsWith("PipeMatching at step 0"), bug.impl());
    assertTrue(bug.steps().stream().anyMatch(l -> l.contains("stage expected S123[8] from upstream, got S123[9]")),
        bug.steps().toString());

    ModelEntry model = replays.bugModels(UnifiedPipelineReplay.MODULE).stream()
        .filter(m -> m.name().equals("unipp_knob_stage_extra_pools")).findFirst().orElseThrow();
    ModelEntry padded = dev.hicachesync.modelcheck.Catalogue.load(Workspace.fromRoot().catalogue())
        .named(List.of("unipp_stage_extra_pools_padded")).get(0);
    TlcResult cx = replays.counterexample(model);
    ReplayReport fixed = UnifiedPipelineReplay.run(padded.name(), replays.unifiedPipelineConstants(padded),
        model.name(), cx.trace().get(), cx.verdict(), CfgFile.read(replays.cfg(model)).invariants());
    System.out.print(fixed.render());
    assertEquals(ReplayReport.Outcome.CLEAN, fixed.outcome(), fixed.render());
  }
}
