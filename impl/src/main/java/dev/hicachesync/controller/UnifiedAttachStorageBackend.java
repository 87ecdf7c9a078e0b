package dev.hicachesync.controller;

import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sync.SyncPoint;

/**
 * {@code unified}'s runtime attach step by step on one rank ({@link StorageAttachSteps}; HiCacheUnified.tla
 * {@code SchedAttach}, {@code GroupsComplete}, {@code SchedAttachRest}, {@code AttachOkComplete}), with the
 * one piece of state the steps leave behind: whether the controller is half attached.
 */
final class UnifiedAttachStorageBackend {
  private final RankState s;
  /** The controller attached (threads running, groups created) while {@code enable_storage} is off. */
  private boolean half;

  UnifiedAttachStorageBackend(RankState s) {
    this.s = s;
  }

  /**
   * Runs one attach on this rank: {@code backendOk} is whether its backend initialises this time. Returns
   * whether the attach request is handled (no retry wanted): it succeeded everywhere, or each rank kept its
   * own outcome; false after a failure (a retry may follow) or a return before the groups' creation.
   */
  boolean run(boolean backendOk, StorageAttachSteps how) {
    if (!s.storage().attached()) {
      return true;
    }
    // a half-attached controller raises "Storage backend already attached" at the start
    boolean ok = backendOk && !half;
    if (!ok && how.failsBeforeGroups()) {
      return false; // SchedAttach under ATT_EARLY: never joins the group creation
    }
    createPrefetchSyncGroups();
    half = !ok && (half || how.registerV2Raises()); // SchedAttachRest
    if (!how.agree()) {
      s.storage().enable(ok);
      return true;
    }
    boolean all = s.sync().reduce(SyncPoint.ATTACH, ReduceOp.MIN, new long[] {ok ? 1 : 0})[0] == 1;
    s.after(SyncPoint.ATTACH);
    s.storage().enable(all); // AttachOkComplete: the agreed outcome; a rollback detaches
    half = !all && how.partialRollback() && !ok && half;
    return all;
  }

  /** Whether the controller is half attached (attached while {@code enable_storage} is off). */
  boolean halfAttached() {
    return half;
  }

  /** {@code _create_prefetch_sync_groups}: the world collective of {@code create_custom_parallel_group}. */
  private void createPrefetchSyncGroups() {
    s.sync().reduce(SyncPoint.GROUPS, ReduceOp.MAX, new long[] {0});
    s.after(SyncPoint.GROUPS);
  }
}
