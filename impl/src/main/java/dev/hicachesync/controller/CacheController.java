package dev.hicachesync.controller;

import dev.hicachesync.storage.StorageBackend;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.sync.SyncLayer;
import dev.hicachesync.sync.SyncObserver;
import dev.hicachesync.tree.InsertResult;
import dev.hicachesync.tree.MatchResult;
import dev.hicachesync.tree.TreeNode;
import java.util.Arrays;

/**
 * <b>Internal</b>: engines use {@code api.HiCacheRank}, which wraps one of these; the simulator reaches it
 * through {@code api.internal.Seam}. Public for those packages: the scheduler's calls, and the read-only views
 * the simulator's checks compare across ranks.
 *
 * <p>The HiCache controller of one rank: its state ({@link RankState}: the radix tree, device and host pools,
 * ack and control queues, ongoing prefetches) and its protocol version's steps ({@link ProtocolSteps}, chosen
 * once here), which keep all of it identical across the sync domain.
 *
 * <p>Scheduler thread only, except {@link #prefetchThreadStep()} (the prefetch thread's body, with its own
 * {@link SyncLayer}) and the background callbacks the {@link ControllerEnv} runs. Why every decision is made
 * at a sync point: the local inputs (event readiness, I/O progress, storage contents, clocks) differ per
 * rank; only reduced values may change the tree, the pools or a prefetch.
 */
public final class CacheController {
  private final RankState s;
  private final ProtocolSteps steps;
  private final LoadBack loadBack;
  private final ControllerView view;
  private boolean prefetchThreadDead;

  /**
   * Creates the controller of one rank.
   *
   * @param sync the scheduler thread's sync layer (S1–S6)
   * @param prefetchSync the prefetch thread's sync layer (S7), on its own groups
   * @param storage the L3 backend, or null when storage is off
   * @param storageSuffix this rank's key space in the storage (its KV shard)
   */
  public CacheController(ControllerConfig config, ControllerEnv env, SyncLayer sync, SyncLayer prefetchSync,
      SyncObserver observer, StorageBackend storage, String storageSuffix) {
    this(config, ControllerFaults.NONE, env, sync, prefetchSync, observer, storage, storageSuffix);
  }

  /**
   * Creates the controller of one rank with deliberate bugs: the simulator's and the tests' seam; no
   * production caller passes anything but {@link ControllerFaults#NONE}. Without a sync layer (unit tests of
   * one step) the steps are those of {@link ProtocolVersion#DEFAULT}.
   */
  public CacheController(ControllerConfig config, ControllerFaults faults, ControllerEnv env, SyncLayer sync,
      SyncLayer prefetchSync, SyncObserver observer, StorageBackend storage, String storageSuffix) {
    this.s = new RankState(config, faults, env, sync, prefetchSync, observer, storage, storageSuffix);
    this.steps = ProtocolSteps.of(sync == null ? null : sync.version(), s);
    this.loadBack = new LoadBack(s);
    this.view = new ControllerView(s, steps);
  }

  // ================================================================ set-up, before the first step

  /**
   * Hands the prefetch pass to {@code threads} from now on (the environment given to the constructor should
   * be {@link ControllerThreads#around} of the caller's, so that background work runs on them too). {@link
   * #closeThreads()} stops them. Scheduler thread.
   */
  public void attachThreads(ControllerThreads threads) {
    steps.checkThreads(threads);
    s.attachThreads(threads);
  }

  /**
   * Gives version {@code unified}'s completion sync (#27010: {@code prefetch_sync_thread_func}'s MIN over
   * {@code prefetch_completion_sync_groups}) its own layer, on groups no other thread uses (before
   * {@link #attachThreads}). Scheduler thread.
   */
  public void useCompletionSync(SyncLayer layer) {
    s.useCompletionSync(layer);
  }

  /** Version {@code pipelined}'s asynchronous S123 (#39903): its own groups' layer, its channel, its faults. */
  public void useAsyncEventCheck(SyncLayer layer, dev.hicachesync.collective.AsyncAllReduce channel,
      PipelinedFaults faults) {
    steps.useAsyncEventCheck(layer, channel, faults);
  }

  /**
   * Gives this rank a sidecar pool ({@link SidecarPool}: a second per-page pool read from storage beside the KV
   * pages, as a {@code DSATokenToKVPool}'s indexer pool), with {@code faults} ({@link SidecarFaults#NONE}: the
   * fixed protocol). The versions before {@code unified} only. Scheduler thread, before the first step.
   */
  public void attachSidecarPool(SidecarFaults faults) {
    if (s.sync() != null && s.sync().version() == ProtocolVersion.UNIFIED) {
      throw new IllegalArgumentException("the sidecar pool is modelled in the versions before unified");
    }
    s.attachSidecar(new SidecarPool(s, faults));
  }

  /**
   * Makes this rank's prefetch thread take part in stage 0's prefetch tickets with PP ({@link PpPrefetchTicket},
   * #36700): stage 0 queries and submits, a later stage's worker takes the ticket's hit. Its prefetch layer then
   * reduces S7 over its stage only. Before the first step.
   */
  public void usePpPrefetchTicket(PpPrefetchTicket ticket) {
    s.usePpPrefetchTicket(ticket);
  }

  /** Makes copies move real KV bytes through {@code data}. Scheduler thread. */
  public void attachData(KvData data) {
    s.data().attach(data);
  }

  /**
   * Sets whether this rank's clock orders LRU timestamps the other way from its peers' (knob {@code
   * local_clock}): eviction then picks the most recently used leaf first. A fault's seam for the simulator
   * ({@code sim.Fault.LOCAL_LRU_CLOCK}), never an engine's. Scheduler thread.
   */
  public void skewLruClock(boolean skewed) {
    s.tree().evictNewestFirst(skewed);
  }

  /** {@code unified}: storage starts detached ({@code enable_storage} false) until {@link #attachStorage}. */
  public void detachStorageAtStart() {
    steps.detachStorageAtStart();
  }

  /**
   * {@code unified}: a runtime attach of the storage backend that every rank handles at the same step
   * ({@code scheduler.py::attach_hicache_storage_wrapped}, {@code storage_attachment.py::attach} @db570fe6;
   * HiCacheUnified.tla {@code RecvComplete} with Knob attach). {@code localOk} is this rank's backend
   * initialisation; with {@code agree} (the fix of F1, docs/explanation/findings/F1-attach-outcome-per-rank.md) the outcome is MIN-reduced first,
   * without it each rank sets {@code enable_storage} from its own outcome. Scheduler thread.
   */
  public void attachStorage(boolean localOk, boolean agree) {
    steps.attachStorage(localOk, agree);
  }

  /**
   * {@code unified}: the runtime attach step by step, as {@code attach_storage_backend} runs it ({@link
   * StorageAttachSteps}: backend creation, the group creation collective GROUPS, the rest, the outcome);
   * {@code backendOk} is this rank's backend initialisation this time. Returns whether the attach request is
   * handled (false: a failure a retry may follow). Scheduler thread; a fault scenario's seam, as {@link
   * #attachStorage}.
   */
  public boolean attachStorageBackend(boolean backendOk, StorageAttachSteps how) {
    return steps.attachStorageBackend(backendOk, how);
  }

  /** {@code unified}: whether a failed attach left the controller half attached (HiCacheUnified.tla env.half). */
  public boolean halfAttached() {
    return steps.halfAttached();
  }

  /**
   * {@code unified} with {@code --hicache-host-memory-mode buffer_only} (#34798, HiCacheUnified.tla Knob
   * {@code buffer_only}): a storage hit whose host slots cannot be allocated at the hit drain is parked and
   * retried first at every later hit drain, instead of revoked (write staging: {@link #stageWritesInHostBuffer}).
   */
  public void parkStorageHits() {
    steps.parkStorageHits();
  }

  /** {@code unified}, knob {@code backup}: each {@link #insert}'s last node is backed up at once (a fault's seam). */
  public void backupAtInsert() {
    s.writes().backupAtInsert();
  }

  /** {@code unified}, {@code buffer_only}: backups staged ({@link BufferWriteStaging}; bug {@code STAGE_LOCAL}). */
  public void stageWritesInHostBuffer(boolean freedOnBackupThread) {
    s.writes().stageWrites(new BufferWriteStaging(s, freedOnBackupThread));
  }

  /** {@code unified}: this stage's host pools beyond KV ({@code extra_host_mem_release_queues}), an S123 entry each. */
  public void extraHostMemReleaseQueues(int pools) {
    steps.extraHostMemReleaseQueues(pools);
  }

  /**
   * PD decode's local restore source ({@link DecodeRestore}): places {@code tokens}' whole pages on this rank's
   * host tier, so that the request's admission loads them back; returns the pages placed. Scheduler thread.
   */
  public int restoreOnHost(int[] tokens) {
    return new DecodeRestore(s).run(tokens);
  }

  /** Returns the attached threads, or null. */
  public ControllerThreads threads() {
    return s.threads();
  }

  /** Stops the attached threads, if any, after the work handed to them. Scheduler thread (or after the run). */
  public void closeThreads() {
    if (s.threads() != null) {
      s.threads().close();
    }
  }

  // ================================================================ the scheduler's steps

  /** Consumes completed transfers: S1, S2, S3 separately, or S123 in {@code merged} and {@code unified}. */
  public void checkHicacheEvents() {
    steps.checkEvents();
  }

  /** Returns true once request {@code rid}'s prefetch (if any) is finished and inserted (S4, S5). */
  public boolean checkPrefetchProgress(String rid) {
    return steps.checkPrefetchProgress(rid);
  }

  /** Releases an aborted request's prefetch (S6). Scheduler thread. */
  public void releaseAbortedRequest(String rid) {
    steps.releaseAborted(rid);
  }

  /**
   * Issues a storage prefetch of the part of {@code tokens} beyond the tree's hits, if storage is on, it is
   * at least the threshold, and host slots can be had; returns whether one was issued. Scheduler thread.
   */
  public boolean prefetchFromStorage(String rid, MatchResult m, int[] tokens) {
    return steps.issuePrefetch(rid, m, tokens);
  }

  /**
   * The prefetch thread dies silently (spec action {@code PrefetchThreadDies}, knob {@code pf_thread_dies}): its
   * storage query raised and {@code prefetch_thread_func}, whose loop catches only {@code queue.Empty}, ended. No
   * later pass runs on this rank; a peer that posted S7 for an operation waits there until its collective times
   * out. A fault scenario's seam (the simulator's {@code Fault.PREFETCH_THREAD_DIES}). Scheduler thread.
   */
  public void prefetchThreadDies() {
    prefetchThreadDead = true;
  }

  /**
   * One pass of the prefetch thread (S7 for every operation issued so far): on the attached prefetch thread
   * (stepped: the caller waits for it; free-running: it returns at once), else on the caller's. Scheduler
   * thread.
   */
  public void runPrefetchPass() {
    if (prefetchThreadDead) {
      return; // nothing runs it any more: what it had not queried stays unqueried on this rank
    }
    ControllerThreads threads = s.threads();
    if (threads == null) {
      prefetchThreadStep();
    } else {
      threads.rethrowFailure();
      steps.handPrefetchPass(threads);
    }
  }

  /**
   * Runs one pass of the prefetch thread on the caller's thread: S7 for every queued operation; in {@code
   * unified}, then the completion sync of this pass's batches. Prefetch thread only.
   */
  void prefetchThreadStep() {
    steps.prefetchPassInline();
  }

  /** Matches {@code tokens} in the tree (device and host hits). Scheduler thread. */
  public MatchResult matchPrefix(int[] tokens) {
    return s.tree().matchPrefix(tokens);
  }

  /**
   * Loads the host-only part of a match back to the device when it is long enough; returns the tokens
   * loaded (0 below {@code load_back_threshold} or without device memory). Scheduler thread only.
   */
  public int loadBack(MatchResult m) {
    return loadBack.run(m);
  }

  /**
   * Returns whether no load-back into any of {@code devicePages} is still in flight: once true, those pages
   * hold the bytes their load-back copied (the device tier's rule 2). Never blocks. Scheduler thread.
   */
  public boolean loaded(int[] devicePages) {
    return s.acks().loadsInto(devicePages).isEmpty();
  }

  /**
   * Blocks until no load-back into any of {@code devicePages} is in flight ({@code load_cache_event}'s wait in
   * SGLang's forward pass). Only the copies' events complete earlier here: S2 still pops them at the count all
   * ranks agree on. Scheduler thread.
   */
  public void awaitLoaded(int[] devicePages) {
    for (LoadAck a : s.acks().loadsInto(devicePages)) {
      a.event().await();
    }
  }

  /**
   * Knob {@code abort_unlock_load} (a fault scenario's seam, as {@link #attachStorage}: the API's abort of a running
   * request is {@code cacheFinishedReq}, which keeps a load-back's lock until S2): the abort of the running request
   * whose pages are {@code devicePages} drops the lock of every load-back into them now, while the load may still
   * write them. Scheduler thread.
   */
  public void abortDropsLoadLocks(int[] devicePages) {
    s.acks().loadLocks().dropFor(devicePages, s.tree());
  }

  /** Returns {@code pages} device pages, evicting LRU leaves if needed, or null. Scheduler thread. */
  public int[] allocateDevice(int pages) {
    return s.pools().allocateDevice(pages);
  }

  /** Evicts unlocked device leaves for {@code pages} pages; returns the pages freed. Scheduler thread. */
  public int evictDevice(int pages) {
    return s.pools().evictDevice(pages);
  }

  /** Returns device pages to the pool (a request that did not cache them). Scheduler thread. */
  public void freeDevice(int[] pages) {
    s.pools().freeDevice(pages);
  }

  /**
   * Inserts computed tokens with their device pages, frees the duplicates and applies the write policy to
   * the nodes on the path. Scheduler thread.
   */
  public InsertResult insert(int[] tokens, int[] devicePages) {
    InsertResult r = insertWithoutBackup(tokens, devicePages);
    WritePolicy policy = s.config().writePolicy();
    if (policy != WritePolicy.WRITE_BACK) {
      for (TreeNode n : r.path()) {
        if (!n.onHost() && s.tree().incHit(n) >= policy.hitThreshold()) {
          s.writes().writeBackup(n);
        }
      }
    }
    s.writes().afterInsert(r);
    return r;
  }

  /**
   * {@link #insert} without the write policy: the tree insertion and the freeing of duplicate pages only.
   * For a driver that backs nodes up itself, when their request finishes ({@link #writeThrough}). Scheduler
   * thread.
   */
  public InsertResult insertWithoutBackup(int[] tokens, int[] devicePages) {
    InsertResult r = s.tree().insert(tokens, devicePages);
    TreeNode created = r.newNode();
    int ps = s.config().pageSize();
    if (created != null && s.data().moves()) {
      // The new node holds the last whole pages of tokens: its seeds come from the data path, which knows
      // them when it just wrote the same prompt's prefill, instead of a pass over the node's key.
      int pages = created.tokens() / ps;
      KvData data = s.data().path();
      created.cachedPageSeeds(n -> data.pageSeeds(tokens, tokens.length / ps - pages, pages, ps));
    }
    if (r.duplicatePages().length > 0) {
      s.pools().freeDevice(r.duplicatePages());
    }
    int whole = tokens.length / ps;
    if (devicePages.length > whole) {
      s.pools().freeDevice(Arrays.copyOfRange(devicePages, whole, devicePages.length));
    }
    return r;
  }

  /**
   * Writes {@code node} through to the host unless it is there already or being written ({@code
   * write_backup} from {@code cache_finished_req}, the point where {@code HiCacheSync.tla} starts it);
   * returns whether a write started. Scheduler thread.
   */
  public boolean writeThrough(TreeNode node) {
    return !node.onHost() && s.writes().writeBackup(node);
  }

  /** Locks {@code node}'s path while a request uses it. Scheduler thread. */
  public void lock(TreeNode node) {
    s.tree().lockRef(node);
  }

  /** Unlocks what {@link #lock} locked. Scheduler thread. */
  public void unlock(TreeNode node) {
    s.tree().unlockRef(node);
  }

  /** Returns and forgets the tokens request {@code rid}'s prefetch inserted into the tree (0 if none). */
  public int takePrefetchedTokens(String rid) {
    return s.prefetches().takeInserted(rid);
  }

  /** Returns whether request {@code rid} has an ongoing prefetch. */
  public boolean hasOngoingPrefetch(String rid) {
    return s.prefetches().isOngoing(rid);
  }

  // ================================================================ read-only views

  /** Returns the rank's read-only views: what the simulator's checks and the API's figures read. */
  public ControllerView view() {
    return view;
  }

  /** The rank's state, for the concurrency tests of this package. */
  RankState state() {
    return s;
  }
}
