package dev.hicachesync.controller;

import dev.hicachesync.collective.AsyncAllReduce;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.sync.SyncLayer;
import dev.hicachesync.tree.MatchResult;
import java.util.List;

/**
 * The protocol steps of one version, chosen once when the controller is built: how a rank consumes its
 * completed transfers, issues, finishes and aborts prefetches, and what its prefetch thread does. The
 * versions of {@code spec/HiCacheSync.tla} share their prefetch steps and differ in the event check ({@link
 * SeparateEventChecks}: S1, S2, S3 for {@code pre20460} and {@code post20460}, whose difference is the groups
 * the sync layer reduces over; {@link FusedEventChecks}: S123 for {@code merged}; {@link PipelinedEventChecks}: S123
 * issued asynchronously for {@code pipelined}); {@code unified} ({@code
 * spec/HiCacheUnified.tla}) has steps of its own ({@link UnifiedSteps}).
 */
interface ProtocolSteps {

  /** Returns the steps of {@code version} over {@code s}; null (a controller without a sync layer) is the default version's. */
  static ProtocolSteps of(ProtocolVersion version, RankState s) {
    return switch (version == null ? ProtocolVersion.DEFAULT : version) {
      case PRE20460, POST20460 -> new SeparateEventChecks(s);
      case MERGED -> new FusedEventChecks(s);
      case PIPELINED -> new PipelinedEventChecks(s);
      case UNIFIED -> new UnifiedSteps(s);
    };
  }

  /** Consumes completed transfers: the event check of the scheduler's step. Scheduler thread. */
  void checkEvents();

  /** Issues a storage prefetch of the part of {@code tokens} beyond the tree's hits; returns whether one was. */
  boolean issuePrefetch(String rid, MatchResult m, int[] tokens);

  /** Returns true once request {@code rid}'s prefetch (if any) is finished and inserted. */
  boolean checkPrefetchProgress(String rid);

  /** Releases an aborted request's prefetch (S6). */
  void releaseAborted(String rid);

  /** One pass of the storage threads on the caller's thread (a controller without threads). */
  void prefetchPassInline();

  /** Hands one pass of the storage threads to {@code threads}. Scheduler thread. */
  void handPrefetchPass(ControllerThreads threads);

  /** Refuses threads this version cannot run correctly with the sync layers it was given. */
  default void checkThreads(ControllerThreads threads) {}

  /** Whether no prefetch of this rank is in flight anywhere (see {@code CacheController.prefetchesSettled}). */
  boolean prefetchesSettled();

  /** Adds what this version's own queues still hold once the rank should be quiet. */
  default void addQueueErrors(List<String> errors) {}

  /** {@code pipelined}: the layer and channel of the asynchronous S123, and its faults; refused elsewhere. */
  default void useAsyncEventCheck(SyncLayer layer, AsyncAllReduce channel, PipelinedFaults faults) {
    throw new IllegalArgumentException("only version pipelined issues its event check asynchronously");
  }

  /** {@code unified}: storage starts detached until a runtime attach; no-op in the other versions. */
  default void detachStorageAtStart() {}

  /** {@code unified}: a runtime attach of the storage backend; no-op in the other versions. */
  default void attachStorage(boolean localOk, boolean agree) {}

  /** {@code unified}: the runtime attach step by step; whether it is handled (true in the other versions). */
  default boolean attachStorageBackend(boolean backendOk, StorageAttachSteps how) {
    return true;
  }

  /** {@code unified}: whether the controller is half attached after a failed attach; false elsewhere. */
  default boolean halfAttached() {
    return false;
  }

  /** {@code unified}, buffer-only host memory: park storage hits the pool cannot serve; no-op elsewhere. */
  default void parkStorageHits() {}

  /** {@code unified}: S123's storage part has one more entry per extra host pool (none elsewhere). */
  default void extraHostMemReleaseQueues(int pools) {}
}
