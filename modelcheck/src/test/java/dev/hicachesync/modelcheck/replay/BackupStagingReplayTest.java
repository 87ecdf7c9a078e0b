package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.Workspace;
import java.nio.file.Files;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code check --replay} of the unified models whose counterexamples need the storage backups the spec queues
 * at each admission (knob {@code backup}: the fault {@code backup_at_admission}, seam {@code
 * CacheController#backupAtInsert}, the backup thread's acks placed by the schedule's {@code BackupOk}). The
 * rows themselves are checked with the others of their module ({@link UnifiedPipelineReplayTest}).
 */
class BackupStagingReplayTest {

  static CatalogueReplays replays;

  @BeforeAll
  static void load() throws Exception {
    assertTrue(Files.isRegularFile(Workspace.fromRoot().catalogue()), "no model catalogue");
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
}
