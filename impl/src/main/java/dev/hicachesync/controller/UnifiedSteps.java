package dev.hicachesync.controller;

import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sync.SyncPoint;
import dev.hicachesync.tree.MatchResult;
import java.util.List;

/**
 * The steps of version {@code unified} ({@code spec/HiCacheUnified.tla}), one object each, built once per
 * controller: prefetch issue without host memory ({@link UnifiedIssuePrefetch}), the S7 and completion-sync
 * threads ({@link UnifiedPrefetchThread}), S123 with the hit and ack drains ({@link UnifiedEventCheck}),
 * S4 under {@code timeout} ({@link UnifiedPrefetchProgress}) and S6 ({@link UnifiedReleaseAborted}); and the
 * queues they share ({@link UnifiedState}).
 */
final class UnifiedSteps implements ProtocolSteps {
  private final RankState s;
  private final UnifiedState unified = new UnifiedState();
  private final UnifiedIssuePrefetch issue;
  private final UnifiedPrefetchThread threads;
  private final UnifiedEventCheck events;
  private final UnifiedPrefetchProgress progress;
  private final UnifiedReleaseAborted abort;
  private final UnifiedAttachStorageBackend attach;

  UnifiedSteps(RankState s) {
    this.s = s;
    UnifiedSettle settle = new UnifiedSettle(s, unified);
    this.issue = new UnifiedIssuePrefetch(s);
    this.threads = new UnifiedPrefetchThread(s, unified);
    this.events = new UnifiedEventCheck(s, unified, settle, new UnifiedReads(s));
    this.progress = new UnifiedPrefetchProgress(s, settle);
    this.abort = new UnifiedReleaseAborted(s, settle);
    this.attach = new UnifiedAttachStorageBackend(s);
  }

  @Override
  public void checkEvents() {
    events.run();
  }

  @Override
  public boolean issuePrefetch(String rid, MatchResult m, int[] tokens) {
    return issue.run(rid, m, tokens);
  }

  @Override
  public boolean checkPrefetchProgress(String rid) {
    return progress.run(rid);
  }

  @Override
  public void releaseAborted(String rid) {
    abort.run(rid);
  }

  /** S7 and then the completion sync of this pass's batches, on the caller's thread. */
  @Override
  public void prefetchPassInline() {
    threads.run();
  }

  /**
   * S7 on the prefetch thread, then this pass's completion sync (one batch ack of every read in flight,
   * picked here, on the scheduler) on the completion-sync thread. Stepped, S7 ends before the completion sync
   * begins, the order the simulator's seeds replay; free-running, the two threads race, each on its own groups.
   */
  @Override
  public void handPrefetchPass(ControllerThreads t) {
    if (!s.prefetches().s7QueueEmpty()) {
      t.onPrefetchThread(threads::runS7);
    }
    List<UnifiedPrefetchThread.Pick> batch = threads.takeCompletionBatches();
    if (!batch.isEmpty()) {
      t.onCompletionSyncThread(() -> threads.runCompletionSync(batch));
    }
  }

  @Override
  public void checkThreads(ControllerThreads t) {
    if (!t.isStepped() && s.completionSync() == s.prefetchSync()) {
      // Free-running, S7 and the completion sync race each other: on one set of groups each rank
      // interleaves them its own way (CollectiveMatching on pf_cp_tp). SGLang gives each its own groups.
      throw new IllegalStateException("version unified free-running needs the completion sync's own groups "
          + "(useCompletionSync before attachThreads)");
    }
  }

  /**
   * No hit or batch ack waiting for the scheduler's drain, no read whose acks are not all synced and none
   * holding host slots until its final ack: {@code HiCacheUnified.tla}'s {@code pf[r].st \in {"none",
   * "done"}}.
   */
  @Override
  public boolean prefetchesSettled() {
    return s.prefetches().idle() && unified.settled();
  }

  @Override
  public void addQueueErrors(List<String> errors) {
    String undrained = unified.undrained();
    if (undrained != null) {
      errors.add("AcksConsumed: unified queues not drained (" + undrained + ")");
    }
  }

  @Override
  public void detachStorageAtStart() {
    s.storage().enable(false);
  }

  /**
   * A runtime attach of the storage backend that every rank handles at the same step: with {@code agree}
   * (the fix of F1) the local outcome is MIN-reduced first, without it each rank sets {@code enable_storage}
   * from its own outcome.
   */
  @Override
  public void attachStorage(boolean localOk, boolean agree) {
    if (!s.storage().attached()) {
      return;
    }
    boolean ok = localOk;
    if (agree) {
      ok = s.sync().reduce(SyncPoint.ATTACH, ReduceOp.MIN, new long[] {ok ? 1 : 0})[0] == 1;
      s.after(SyncPoint.ATTACH);
    }
    s.storage().enable(ok);
  }

  @Override
  public boolean attachStorageBackend(boolean backendOk, StorageAttachSteps how) {
    return attach.run(backendOk, how);
  }

  @Override
  public boolean halfAttached() {
    return attach.halfAttached();
  }

  @Override
  public void parkStorageHits() {
    unified.parkHits();
  }

  @Override
  public void extraHostMemReleaseQueues(int pools) {
    unified.extraHostPools(pools);
  }
}
