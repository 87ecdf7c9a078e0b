package dev.hicachesync.controller;

/**
 * Deliberate protocol bugs the controller can be built with, so that tests can prove the invariant checks
 * bite; {@link #NONE} in every real run. Set through {@code sim.Fault}; internal: never part of the
 * public API ({@code api.HiCacheConfig} has no fault switch), only the simulator's seam passes it to
 * {@link CacheController}.
 *
 * @param skipIdleWriteCheck B3 (#10127): {@code writing_check} returns before its collective when no write
 *     ack is ready on this rank
 * @param unsyncedLoadingCheck B5: {@code loading_check} pops this rank's own count of ready load acks
 * @param releaseTailEarly B7 before #27010: a stopped prefetch's unread host slots are handed back at once,
 *     while this rank's I/O thread may still be writing them
 * @param untrackedSlots the host slot ledger does not check frees against in-flight transfers (a build
 *     without it), so only the data path's integrity checks can see a slot reused too early
 * @param localTerminate {@code unified}, #36425 with a rank-local terminate: a failed read marks the
 *     operation terminated on this rank only (as {@code _page_transfer} did @db570fe6), and {@code
 *     check_prefetch_progress}'s {@code is_terminated()} short-circuit then skips S4 on this rank only
 * @param loadReadinessBeforeMin {@code unified}, PD decode (#29483 before its fix): {@code
 *     is_load_back_event_done} polls this rank's own load event and only when it is done calls {@code
 *     loading_check}, whose MIN (S2) the peers then never join
 * @param backupThreadDies {@code unified}, #38428: the storage backend raises in this rank's backup thread
 *     (rank 0's first backup) and the thread dies: that backup and every later one are never acked
 * @param backupRaiseAcked #38427, the fix: the same raise is caught and the backup acked (not stored)
 * @param ppDrainNowait {@code unified} with PP (HiCacheUnifiedPipeline.tla, bug {@code NOWAIT}): a later
 *     stage drains the storage queues by stage 0's forwarded S123 counts with {@code _drain_queue}'s {@code
 *     get_nowait}, which stops at the first entry its own threads have not queued yet
 * @param lateDeposits {@code unified} with PP, the scenario of both PP drain faults: this rank is a later
 *     stage whose prefetch thread queues each S7 outcome {@link #LATE_DEPOSIT_QUERIES} query latencies
 *     late (its scheduler is ahead of its storage threads, as a GIL-starved thread is)
 * @param localS3Payload knob {@code local_payload}: S3's vector ends at this rank's last non-empty queue, so
 *     its length depends on rank-local data and the peers' calls do not match (INV-1)
 * @param releaseWhole knob {@code release_whole} (#9797 before its fix): an aborted prefetch's host slots are
 *     queued as one release entry per call, the scheduler's (the pages this rank has read) and the I/O thread's
 *     (the rest), so the entry count depends on how far this rank's read got (INV-4)
 * @param constantDigestPair {@code unified}: S123's digest conjunct sends a constant pair, as {@code
 *     HiCacheUnified.tla} models it (the replays of the consensus checker, which compare on the spec's behaviour)
 * @param pfRaiseThreadDies {@code unified}, bug {@code PFDIE} (spec action {@code PfRaise}): a storage hit query
 *     that raises ends this rank's prefetch thread ({@code prefetch_thread_func}'s loop catches only {@code
 *     queue.Empty}), so no later S7 of this rank runs; without it the raise counts as 0 hit pages (the fix)
 * @param threadReadiness {@code unified}, {@code wait_complete} (HiCacheUnifiedPP.tla's Ready {@code thread}):
 *     {@code check_prefetch_progress} counts a prefetch done once this rank's completion-sync thread queued its
 *     final batch ack, not once the scheduler drained it
 */
public record ControllerFaults(
    boolean skipIdleWriteCheck, boolean unsyncedLoadingCheck, boolean releaseTailEarly,
    boolean untrackedSlots, boolean localTerminate, boolean loadReadinessBeforeMin,
    boolean backupThreadDies, boolean backupRaiseAcked, boolean ppDrainNowait, boolean lateDeposits,
    boolean localS3Payload, boolean releaseWhole, boolean constantDigestPair, boolean pfRaiseThreadDies,
    boolean threadReadiness) {
  /** How many storage-query latencies a late stage's S7 outcome takes to reach its hit queue. */
  public static final int LATE_DEPOSIT_QUERIES = 4;

  /** The faults without {@code threadReadiness}. */
  public ControllerFaults(boolean skipIdleWriteCheck, boolean unsyncedLoadingCheck, boolean releaseTailEarly,
      boolean untrackedSlots, boolean localTerminate, boolean loadReadinessBeforeMin, boolean backupThreadDies,
      boolean backupRaiseAcked, boolean ppDrainNowait, boolean lateDeposits, boolean localS3Payload,
      boolean releaseWhole, boolean constantDigestPair, boolean pfRaiseThreadDies) {
    this(skipIdleWriteCheck, unsyncedLoadingCheck, releaseTailEarly, untrackedSlots, localTerminate,
        loadReadinessBeforeMin, backupThreadDies, backupRaiseAcked, ppDrainNowait, lateDeposits, localS3Payload,
        releaseWhole, constantDigestPair, pfRaiseThreadDies, false);
  }

  /** The faults without {@code pfRaiseThreadDies}. */
  public ControllerFaults(boolean skipIdleWriteCheck, boolean unsyncedLoadingCheck, boolean releaseTailEarly,
      boolean untrackedSlots, boolean localTerminate, boolean loadReadinessBeforeMin, boolean backupThreadDies,
      boolean backupRaiseAcked, boolean ppDrainNowait, boolean lateDeposits, boolean localS3Payload,
      boolean releaseWhole, boolean constantDigestPair) {
    this(skipIdleWriteCheck, unsyncedLoadingCheck, releaseTailEarly, untrackedSlots, localTerminate,
        loadReadinessBeforeMin, backupThreadDies, backupRaiseAcked, ppDrainNowait, lateDeposits, localS3Payload,
        releaseWhole, constantDigestPair, false);
  }

  /** The faults without {@code constantDigestPair}. */
  public ControllerFaults(boolean skipIdleWriteCheck, boolean unsyncedLoadingCheck, boolean releaseTailEarly,
      boolean untrackedSlots, boolean localTerminate, boolean loadReadinessBeforeMin, boolean backupThreadDies,
      boolean backupRaiseAcked, boolean ppDrainNowait, boolean lateDeposits, boolean localS3Payload,
      boolean releaseWhole) {
    this(skipIdleWriteCheck, unsyncedLoadingCheck, releaseTailEarly, untrackedSlots, localTerminate,
        loadReadinessBeforeMin, backupThreadDies, backupRaiseAcked, ppDrainNowait, lateDeposits, localS3Payload,
        releaseWhole, false);
  }

  /** The faults without {@code releaseWhole}. */
  public ControllerFaults(boolean skipIdleWriteCheck, boolean unsyncedLoadingCheck, boolean releaseTailEarly,
      boolean untrackedSlots, boolean localTerminate, boolean loadReadinessBeforeMin, boolean backupThreadDies,
      boolean backupRaiseAcked, boolean ppDrainNowait, boolean lateDeposits, boolean localS3Payload) {
    this(skipIdleWriteCheck, unsyncedLoadingCheck, releaseTailEarly, untrackedSlots, localTerminate,
        loadReadinessBeforeMin, backupThreadDies, backupRaiseAcked, ppDrainNowait, lateDeposits, localS3Payload, false,
        false);
  }

  /** The faults without {@code localS3Payload}. */
  public ControllerFaults(boolean skipIdleWriteCheck, boolean unsyncedLoadingCheck, boolean releaseTailEarly,
      boolean untrackedSlots, boolean localTerminate, boolean loadReadinessBeforeMin, boolean backupThreadDies,
      boolean backupRaiseAcked, boolean ppDrainNowait, boolean lateDeposits) {
    this(skipIdleWriteCheck, unsyncedLoadingCheck, releaseTailEarly, untrackedSlots, localTerminate,
        loadReadinessBeforeMin, backupThreadDies, backupRaiseAcked, ppDrainNowait, lateDeposits, false);
  }

  /** No fault: the protocol as specified. */
  public static final ControllerFaults NONE = new ControllerFaults(false, false, false);

  /** The faults without {@code untrackedSlots} (the slot ledger checks every free). */
  public ControllerFaults(boolean skipIdleWriteCheck, boolean unsyncedLoadingCheck, boolean releaseTailEarly) {
    this(skipIdleWriteCheck, unsyncedLoadingCheck, releaseTailEarly, false);
  }

  /** The faults without the PP drain faults of {@code unified}. */
  public ControllerFaults(boolean skipIdleWriteCheck, boolean unsyncedLoadingCheck, boolean releaseTailEarly,
      boolean untrackedSlots, boolean localTerminate, boolean loadReadinessBeforeMin, boolean backupThreadDies,
      boolean backupRaiseAcked) {
    this(skipIdleWriteCheck, unsyncedLoadingCheck, releaseTailEarly, untrackedSlots, localTerminate,
        loadReadinessBeforeMin, backupThreadDies, backupRaiseAcked, false, false);
  }

  /** The faults of the versions before {@code unified}. */
  public ControllerFaults(boolean skipIdleWriteCheck, boolean unsyncedLoadingCheck, boolean releaseTailEarly,
      boolean untrackedSlots) {
    this(skipIdleWriteCheck, unsyncedLoadingCheck, releaseTailEarly, untrackedSlots, false, false, false, false);
  }
}
