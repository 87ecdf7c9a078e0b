package dev.hicachesync.controller;

import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.env.TransferKind;
import dev.hicachesync.storage.CorruptPageException;
import dev.hicachesync.storage.ForgedPageException;
import dev.hicachesync.storage.PageKey;
import dev.hicachesync.storage.StorageBackend;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.sync.SyncLayer;
import dev.hicachesync.sync.SyncObserver;
import dev.hicachesync.sync.SyncPoint;
import dev.hicachesync.tier.PageAllocator;
import dev.hicachesync.tree.DeviceEvictionSink;
import dev.hicachesync.tree.InsertResult;
import dev.hicachesync.tree.MatchResult;
import dev.hicachesync.tree.Mix64;
import dev.hicachesync.tree.RadixTree;
import dev.hicachesync.tree.TreeNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * <b>Internal</b>: engines use {@code api.HiCacheRank}, which wraps one of these; the simulator reaches it
 * through {@code api.Seam}. Its public methods are public only because the simulator lives in another package.
 *
 * <p>The HiCache controller of one rank: its radix tree, device and host pools, ack and control queues,
 * ongoing prefetches, and the protocol steps that keep all of it identical across the sync domain.
 *
 * <p>Scheduler thread only, except {@link #prefetchThreadStep()} (the prefetch thread's body, with its own
 * {@link SyncLayer}) and the background callbacks the {@link ControllerEnv} runs. The queues that
 * background threads fill ({@code revokeQueue}, {@code backupAckQueue}, {@code hostReleaseQueue}) are
 * {@link ReadyQueue}s: appended in a deterministic order, ready at rank-local times, popped by the scheduler
 * at S3 in counts all ranks agreed on.
 *
 * <p>Why every decision is made at a sync point: the local inputs (event readiness, I/O progress, storage
 * contents, clocks) differ per rank; only reduced values may change the tree, the pools or a prefetch.
 */
public final class CacheController {
  final ControllerConfig config;
  /** Deliberate bugs, from the simulator's seam only ({@link ControllerFaults#NONE} otherwise). */
  final ControllerFaults faults;
  final ControllerEnv env;
  final SyncLayer sync;
  final SyncLayer prefetchSync;
  /**
   * The completion-sync thread's layer ({@code prefetch_sync_thread_func}, version {@code unified}): its own
   * groups ({@link #useCompletionSync}); {@link #prefetchSync} until then, which only a stepped or inline
   * run may share (the two threads then take turns in an order every rank shares).
   */
  private SyncLayer completionSync;
  final SyncObserver observer;
  final StorageBackend storage;
  final String storageSuffix;
  final RadixTree tree;
  final PageAllocator device;
  final HostSlotLedger host;
  final ControllerStats stats = new ControllerStats();
  /** Where copies move KV bytes; {@link KvData#NONE} (page counts only) unless {@link #attachData} was called. */
  KvData data = KvData.NONE;

  final CopyAckQueue<WriteAck> writeAcks = new CopyAckQueue<>();
  final CopyAckQueue<LoadAck> loadAcks = new CopyAckQueue<>();
  final ReadyQueue<String> revokeQueue = new ReadyQueue<>();
  /**
   * S7 outcomes decided but not yet deposited on this rank (see {@link #storageQueuesSettled()}): the
   * prefetch thread increments, the prefetch I/O thread decrements, the scheduler reads; atomic for that.
   */
  final AtomicInteger undeposited = new AtomicInteger();
  final ReadyQueue<Long> backupAckQueue = new ReadyQueue<>();
  final ReadyQueue<int[]> hostReleaseQueue = new ReadyQueue<>();
  /** {@code ongoing_prefetch}: insertion-ordered so that every rank iterates it alike. */
  final Map<String, PrefetchOperation> ongoingPrefetch = new LinkedHashMap<>();
  /**
   * Operations waiting for the prefetch thread (S7): single producer (the scheduler, at issue), single
   * consumer (the prefetch thread); a concurrent queue, since free-running the two race.
   */
  final Queue<PrefetchOperation> prefetchQueue = new ConcurrentLinkedQueue<>();
  /**
   * Operations queued for S7 so far ({@link IssuePrefetch}) and how many of them the passes handed to the
   * prefetch thread cover: a pass takes exactly the operations queued when the scheduler hands it over, never
   * one queued while it runs, so every rank's passes hold the same operations (as stepped ones do).
   * Scheduler thread. Not used by version {@code unified}.
   */
  int s7Queued;
  int s7Handed;
  /**
   * Operations whose S7 the prefetch thread has finished, release-queue entries included: the prefetch
   * thread increments, the scheduler waits on it before a stop that may queue a tail ({@link
   * #awaitHandedS7()}).
   */
  final AtomicInteger s7Done = new AtomicInteger();
  /** Tokens each request's prefetch inserted at S5, until its admission asks (hit statistics). */
  final Map<String, Integer> prefetchedTokens = new java.util.HashMap<>();
  /** Version {@code unified}'s queues (hit, ack-prefetch) and {@code enable_storage}; null in the others. */
  final UnifiedState unified;

  private final WritingCheck writingCheck = new WritingCheck(this);
  private final LoadingCheck loadingCheck = new LoadingCheck(this);
  private final DrainStorageQueues drainStorageQueues = new DrainStorageQueues(this);
  private final FusedEventCheck fusedEventCheck = new FusedEventCheck(this);
  private final CheckPrefetchProgress checkPrefetchProgress = new CheckPrefetchProgress(this);
  private final ReleaseAbortedRequest releaseAbortedRequest = new ReleaseAbortedRequest(this);
  private final PrefetchThreadStep prefetchThreadStep = new PrefetchThreadStep(this);
  private final LoadBack loadBack = new LoadBack(this);
  private final IssuePrefetch issuePrefetch = new IssuePrefetch(this);
  private final Sink sink = new Sink();
  /** Version {@code unified}'s steps (HiCacheUnified.tla); null in the others. */
  private final UnifiedSteps unifiedSteps;

  /** The storage backend raised in this rank's backup thread (a fault), and whether the thread died of it. */
  private boolean backupRaised;
  private boolean backupThreadDead;

  /** Running hashes of the decisions, scheduler thread only ({@link #digest()} reads them there). */
  long ackHash;
  long allocHash;
  /**
   * The prefetch decisions' running hash. Both the scheduler (issue, S4–S6, S3's revokes) and the prefetch
   * thread (S7) mix into it, so it is guarded by this lock ({@link #mixPrefetchHash}). Stepped, the two
   * threads alternate in a seeded order and equal ranks hash alike; free-running, the interleaving of S7
   * with the scheduler's decisions is rank-local, so this one digest is then not comparable across ranks
   * (the simulator, which compares it, always runs stepped).
   */
  private long prefetchHash;
  private final Object prefetchHashLock = new Object();

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
   * Creates the controller of one rank with deliberate bugs: the simulator's and the tests' seam (issue 5);
   * no production caller passes anything but {@link ControllerFaults#NONE}.
   */
  public CacheController(ControllerConfig config, ControllerFaults faults, ControllerEnv env, SyncLayer sync,
      SyncLayer prefetchSync, SyncObserver observer, StorageBackend storage, String storageSuffix) {
    this.config = config;
    this.faults = faults;
    this.env = env;
    this.sync = sync;
    this.prefetchSync = prefetchSync;
    this.completionSync = prefetchSync;
    this.observer = observer == null ? SyncObserver.NONE : observer;
    this.storage = config.storage() ? storage : null;
    this.storageSuffix = storageSuffix;
    this.tree = new RadixTree(config.pageSize(), this.storage != null);
    this.device = new PageAllocator(config.devicePages());
    this.host = new HostSlotLedger(config.hostPages(), !faults.untrackedSlots());
    boolean isUnified = sync != null && sync.version() == ProtocolVersion.UNIFIED; // null: unit tests of one step
    this.unified = isUnified ? new UnifiedState(this.storage != null) : null;
    this.unifiedSteps = isUnified ? new UnifiedSteps(this) : null;
  }

  /**
   * The rank's own threads (prefetch, prefetch I/O, backup, copy completion), or null: then the prefetch
   * pass runs on the caller's thread (tests that drive a controller directly).
   */
  private ControllerThreads threads;

  /**
   * Hands the prefetch pass to {@code threads} from now on (before the first step; the environment given
   * to the constructor should be {@link ControllerThreads#around} of the simulator's, so that background
   * work runs on them too). {@link #closeThreads()} stops them. Scheduler thread.
   */
  public void attachThreads(ControllerThreads threads) {
    if (unified != null && !threads.isStepped() && completionSync == prefetchSync) {
      // Free-running, S7 and the completion sync race each other: on one set of groups each rank
      // interleaves them its own way (CollectiveMatching on pf_cp_tp). SGLang gives each its own groups.
      throw new IllegalStateException("version unified free-running needs the completion sync's own groups "
          + "(useCompletionSync before attachThreads)");
    }
    this.threads = threads;
  }

  /**
   * Gives version {@code unified}'s completion sync (#27010: {@code prefetch_sync_thread_func}'s MIN over
   * {@code prefetch_completion_sync_groups}) its own layer, on groups no other thread uses (before the
   * first step and before {@link #attachThreads}). Scheduler thread.
   */
  public void useCompletionSync(SyncLayer layer) {
    if (layer == sync || layer == prefetchSync) {
      throw new IllegalArgumentException("the completion sync needs a layer of its own");
    }
    this.completionSync = layer;
  }

  /** The completion-sync thread's layer ({@link #prefetchSync} unless {@link #useCompletionSync} was called). */
  SyncLayer completionSync() {
    return completionSync;
  }

  /** Returns the attached threads, or null. */
  public ControllerThreads threads() {
    return threads;
  }

  /** Stops the attached threads, if any, after the work handed to them. Scheduler thread (or after the run). */
  public void closeThreads() {
    if (threads != null) {
      threads.close();
    }
  }

  /**
   * One pass of the prefetch thread (S7 for every operation issued so far): on the attached prefetch thread
   * (stepped: the caller waits for it; free-running: it returns at once), else on the caller's. Scheduler
   * thread.
   */
  public void runPrefetchPass() {
    if (threads == null) {
      prefetchThreadStep();
    } else {
      threads.rethrowFailure();
      threads.prefetchPass(this);
    }
  }

  /** Makes copies move real KV bytes through {@code data} (before the first step). Scheduler thread. */
  public void attachData(KvData data) {
    this.data = data;
  }

  // ================================================================ accessors

  /** Returns the tree. */
  public RadixTree tree() {
    return tree;
  }

  /** Returns the counters. */
  public ControllerStats stats() {
    return stats;
  }

  /** Returns the protocol version. */
  public ProtocolVersion version() {
    return sync.version();
  }

  /** Returns the collectives the sync layers (scheduler, prefetch, completion sync) issued so far. */
  public long collectives() {
    return sync.collectives() + prefetchSync.collectives()
        + (completionSync == prefetchSync ? 0 : completionSync.collectives());
  }

  /** Returns this rank's digest, one running hash per invariant. */
  public ControllerDigest digest() {
    return new ControllerDigest(tree.mutationHash(), ackHash, prefetchHash(),
        Mix64.mix(Mix64.mix(allocHash, device.freeCount()), host.pool().freeCount()));
  }

  /** Mixes {@code parts} into the prefetch decisions' hash, in order. Scheduler or prefetch thread. */
  void mixPrefetchHash(long... parts) {
    synchronized (prefetchHashLock) {
      long h = prefetchHash;
      for (long p : parts) {
        h = Mix64.mix(h, p);
      }
      prefetchHash = h;
    }
  }

  private long prefetchHash() {
    synchronized (prefetchHashLock) {
      return prefetchHash;
    }
  }

  /** Returns the acks popped so far: [write, load, revoke, backup, release] (readable AckAgreement view). */
  public long[] poppedCounts() {
    return new long[] {stats.writeAcksPopped, stats.loadAcksPopped, stats.revokesPopped,
        stats.backupAcksPopped, stats.releasesPopped};
  }

  /** Returns the ongoing prefetches, in issue order. */
  public Collection<PrefetchOperation> ongoingPrefetches() {
    return Collections.unmodifiableCollection(ongoingPrefetch.values());
  }

  /** Returns whether request {@code rid} has an ongoing prefetch. */
  public boolean hasOngoingPrefetch(String rid) {
    return ongoingPrefetch.containsKey(rid);
  }

  /** Returns and forgets the tokens request {@code rid}'s prefetch inserted into the tree (0 if none). */
  public int takePrefetchedTokens(String rid) {
    Integer t = prefetchedTokens.remove(rid);
    return t == null ? 0 : t;
  }

  /** Returns the free device pages. */
  public int freeDevicePages() {
    return device.freeCount();
  }

  /** Returns the free host pages. */
  public int freeHostPages() {
    return host.pool().freeCount();
  }

  /** Returns the host slots some transfer still uses (0 once quiet). */
  public int busyHostSlots() {
    return host.busySlots();
  }

  /**
   * Returns what is still in flight or unaccounted once the rank should be quiet; empty when all is well
   * (see {@link QuiescenceCheck}). Scheduler thread only.
   */
  public List<String> quiescenceErrors() {
    return new QuiescenceCheck(this).run();
  }

  /** Returns [write acks, load acks, revokes, backup acks, host releases, prefetch queue] still queued. */
  public int[] queueSizes() {
    return new int[] {writeAcks.size(), loadAcks.size(), revokeQueue.size(), backupAckQueue.size(),
        hostReleaseQueue.size(), prefetchQueue.size()};
  }

  // ================================================================ scheduler-thread steps

  /** Consumes completed transfers: S1, S2, S3 separately, or S123 in {@code merged}. Scheduler thread. */
  public void checkHicacheEvents() {
    if (unifiedSteps != null) {
      unifiedSteps.events.run();
    } else if (sync.version() == ProtocolVersion.MERGED) {
      fusedEventCheck.run();
    } else {
      writingCheck.run();
      loadingCheck.run();
      if (storage != null) {
        drainStorageQueues.run();
      }
    }
  }

  /** Returns true once request {@code rid}'s prefetch (if any) is finished and inserted (S4, S5). */
  public boolean checkPrefetchProgress(String rid) {
    return unifiedSteps != null ? unifiedSteps.progress.run(rid) : checkPrefetchProgress.run(rid);
  }

  /** Releases an aborted request's prefetch (S6). Scheduler thread. */
  public void releaseAbortedRequest(String rid) {
    if (unifiedSteps != null) {
      unifiedSteps.abort.run(rid);
    } else {
      releaseAbortedRequest.run(rid);
    }
  }

  /**
   * Whether every S7 outcome has reached this rank's scheduler side and every revoke and host-release entry
   * queued so far is ready (no read still writes a released slot). A spec-shaped run waits for it where the
   * spec makes those entries poppable at once (the spec has no storage-query latency and lands a page read
   * atomically). Scheduler thread.
   */
  public boolean storageQueuesSettled() {
    return undeposited.get() == 0 && revokeQueue.leadingReady() == revokeQueue.size()
        && hostReleaseQueue.leadingReady() == hostReleaseQueue.size();
  }

  /**
   * Whether no prefetch of this rank is in flight anywhere: none ongoing, none queued for S7 and, in {@code
   * unified}, no hit or batch ack waiting for the scheduler's drain, no read whose acks are not all synced and
   * none holding host slots until its final ack. {@code HiCacheUnified.tla}'s {@code pf[r].st \in {"none",
   * "done"}}: a spec-shaped {@code unified} run delivers the next request only then (the spec's {@code
   * RecvComplete}). Scheduler thread (the storage threads stepped).
   */
  public boolean prefetchesSettled() {
    return ongoingPrefetch.isEmpty() && prefetchQueue.isEmpty() && (unified == null
        || unified.hitQueue.size() == 0 && unified.ackQueue.size() == 0 && unified.reading.isEmpty()
        && unified.holding.isEmpty());
  }

  /**
   * Runs one pass of the prefetch thread: S7 for every queued operation; in {@code unified}, then the
   * completion sync of this pass's batches, on the same thread (a controller without threads). Prefetch
   * thread only.
   */
  public void prefetchThreadStep() {
    if (unifiedSteps != null) {
      unifiedSteps.threads.run();
    } else {
      prefetchThreadStep.run(Integer.MAX_VALUE);
    }
  }

  /**
   * Hands the operations queued so far to the next pass (version other than {@code unified}); returns the
   * pass's bound on {@link #s7Done}, or -1 when nothing new is queued. Scheduler thread.
   */
  int handQueuedToS7() {
    if (s7Handed == s7Queued) {
      return -1;
    }
    s7Handed = s7Queued;
    return s7Handed;
  }

  /** One prefetch pass bounded by {@link #handQueuedToS7()}: S7 for the operations handed to it. Prefetch thread. */
  void prefetchThreadStep(int doneBound) {
    prefetchThreadStep.run(doneBound);
  }

  /** The prefetch thread's S7 for every queued operation (version {@code unified}). Prefetch thread only. */
  void unifiedHitsStep() {
    unifiedSteps.threads.runS7();
  }

  /**
   * Picks this pass's completion-sync work (version {@code unified}): one batch of every read in flight, in
   * hit-drain order; null when there is none. Scheduler thread; the returned task runs on the completion-sync
   * thread.
   */
  Runnable unifiedCompletionStep() {
    List<UnifiedPrefetchThread.Pick> batch = unifiedSteps.threads.takeCompletionBatches();
    return batch.isEmpty() ? null : () -> unifiedSteps.threads.runCompletionSync(batch);
  }

  /** Matches {@code tokens} in the tree (device and host hits). Scheduler thread. */
  public MatchResult matchPrefix(int[] tokens) {
    return tree.matchPrefix(tokens);
  }

  /**
   * Loads the host-only part of a match back to the device when it is long enough; returns the tokens
   * loaded (0 below {@code load_back_threshold} or without device memory). Scheduler thread only.
   */
  public int loadBack(MatchResult m) {
    return loadBack.run(m);
  }

  /** Returns {@code pages} device pages, evicting LRU leaves if needed, or null. Scheduler thread. */
  public int[] allocateDevice(int pages) {
    int[] r = device.allocate(pages);
    if (r == null) {
      int want = pages - device.freeCount();
      stats.deviceEvictedPages += tree.evictDevice(want, sink);
      r = device.allocate(pages);
    }
    allocHash = Mix64.mix(Mix64.mix(Mix64.mix(allocHash, 1), pages), r == null ? -1 : r.length == 0 ? -2 : r[0]);
    return r;
  }

  /** Evicts unlocked device leaves for {@code pages} pages; returns the pages freed. Scheduler thread. */
  public int evictDevice(int pages) {
    int n = tree.evictDevice(pages, sink);
    stats.deviceEvictedPages += n;
    return n;
  }

  /** Returns device pages to the pool (a request that did not cache them). Scheduler thread. */
  public void freeDevice(int[] pages) {
    sink.freeDevice(pages);
  }

  /**
   * Inserts computed tokens with their device pages, frees the duplicates and applies the write policy to
   * the nodes on the path. Scheduler thread.
   */
  public InsertResult insert(int[] tokens, int[] devicePages) {
    InsertResult r = insertWithoutBackup(tokens, devicePages);
    if (config.writePolicy() != WritePolicy.WRITE_BACK) {
      for (TreeNode n : r.path()) {
        if (!n.onHost() && tree.incHit(n) >= config.writePolicy().hitThreshold()) {
          writeBackup(n);
        }
      }
    }
    return r;
  }

  /**
   * {@link #insert} without the write policy: the tree insertion and the freeing of duplicate pages only.
   * For a driver that backs nodes up itself, when their request finishes ({@link #writeThrough}). Scheduler
   * thread.
   */
  public InsertResult insertWithoutBackup(int[] tokens, int[] devicePages) {
    InsertResult r = tree.insert(tokens, devicePages);
    TreeNode created = r.newNode();
    if (created != null && data.moves()) {
      // The new node holds the last whole pages of tokens: its seeds come from the data path, which knows
      // them when it just wrote the same prompt's prefill (issue 13), instead of a pass over the node's key.
      int ps = config.pageSize();
      int pages = created.tokens() / ps;
      created.cachedPageSeeds(n -> data.pageSeeds(tokens, tokens.length / ps - pages, pages, ps));
    }
    if (r.duplicatePages().length > 0) {
      sink.freeDevice(r.duplicatePages());
    }
    int whole = tokens.length / config.pageSize();
    if (devicePages.length > whole) {
      sink.freeDevice(Arrays.copyOfRange(devicePages, whole, devicePages.length));
    }
    return r;
  }

  /**
   * Writes {@code node} through to the host unless it is there already or being written ({@code
   * write_backup} from {@code cache_finished_req}, the point where {@code HiCacheSync.tla} starts it);
   * returns whether a write started. Scheduler thread.
   */
  public boolean writeThrough(TreeNode node) {
    return !node.onHost() && writeBackup(node);
  }

  /** Locks {@code node}'s path while a request uses it. Scheduler thread. */
  public void lock(TreeNode node) {
    tree.lockRef(node);
  }

  /** Unlocks what {@link #lock} locked. Scheduler thread. */
  public void unlock(TreeNode node) {
    tree.unlockRef(node);
  }

  /**
   * Issues a storage prefetch of the part of {@code tokens} beyond the tree's hits, if storage is on, it is
   * at least the threshold, and host slots can be had; returns whether one was issued. Scheduler thread.
   */
  public boolean prefetchFromStorage(String rid, MatchResult m, int[] tokens) {
    return unifiedSteps != null ? unifiedSteps.issue.run(rid, m, tokens) : issuePrefetch.run(rid, m, tokens);
  }

  // ================================================================ helpers for the steps

  /** Returns how many acks at the head of {@code q} have completed on this rank (the local S1/S2 value). */
  static int leadingDone(CopyAckQueue<?> q) {
    return q.leadingDone();
  }

  /** Pops exactly {@code n} write acks (S1 decision): unlock, then start the storage backup. */
  void popWriteAcks(int n) {
    ackHash = Mix64.mix(Mix64.mix(ackHash, 1), n);
    for (int i = 0; i < n; i++) {
      WriteAck ack = writeAcks.poll();
      if (ack == null) {
        throw new IllegalStateException("S1 decided " + n + " pops but only " + i + " write acks are queued");
      }
      ack.event().await(); // done already on stage 0; a later PP stage blocks on its own event
      host.clearBusy(ack.hostPages(), 0, ack.hostPages().length);
      TreeNode node = tree.node(ack.nodeId());
      tree.unlockRef(node);
      stats.writeAcksPopped++;
      if (storageActive()) {
        // The seeds taken at the write still describe the node unless a split cut its key since (a split
        // only shortens a node's key, so an unchanged page count means an unchanged key).
        long[] seeds = ack.seeds();
        storageBackup(node, seeds != null && seeds.length == node.tokens() / config.pageSize() ? seeds
            : seeds(node));
      }
    }
  }

  /** Pops exactly {@code n} load acks (S2 decision): unlock the loaded path. */
  void popLoadAcks(int n) {
    ackHash = Mix64.mix(Mix64.mix(ackHash, 2), n);
    for (int i = 0; i < n; i++) {
      LoadAck ack = loadAcks.poll();
      if (ack == null) {
        throw new IllegalStateException("S2 decided " + n + " pops but only " + i + " load acks are queued");
      }
      ack.event().await();
      host.clearBusy(ack.hostPages(), 0, ack.hostPages().length);
      tree.unlockRef(tree.node(ack.nodeId()));
      stats.loadAcksPopped++;
    }
  }

  /** Pops exactly the S3 counts: revokes, backup acks, host releases. */
  void drainControlQueues(int revokes, int backups, int releases) {
    ackHash = Mix64.mix(Mix64.mix(Mix64.mix(Mix64.mix(ackHash, 3), revokes), backups), releases);
    stats.revokesPopped += revokes;
    stats.backupAcksPopped += backups;
    stats.releasesPopped += releases;
    if (revokes + backups + releases > 0) {
      // Ready already on a deciding rank; a later PP stage blocks on its own I/O first.
      env.awaitCondition(() -> readyAtLeast(revokes, backups, releases));
    }
    for (int i = 0; i < revokes; i++) {
      String rid = revokeQueue.poll();
      PrefetchOperation op = ongoingPrefetch.remove(rid);
      if (op != null) {
        tree.releaseHost(op.anchor);
        mixPrefetchHash(7, rid.hashCode());
      }
    }
    for (int i = 0; i < backups; i++) {
      TreeNode node = tree.node(backupAckQueue.poll());
      if (node != null) {
        tree.releaseHost(node);
      }
    }
    for (int i = 0; i < releases; i++) {
      freeHost(hostReleaseQueue.poll(), "S3 host release");
    }
  }

  private boolean readyAtLeast(int revokes, int backups, int releases) {
    return revokeQueue.leadingReady() >= revokes && backupAckQueue.leadingReady() >= backups
        && hostReleaseQueue.leadingReady() >= releases;
  }

  /** Whether nodes are backed up to storage: a backend is attached and, in {@code unified}, enabled. */
  boolean storageActive() {
    return storage != null && (unified == null || unified.storageEnabled);
  }

  /**
   * {@code unified}: storage starts detached ({@code enable_storage} false) until {@link #attachStorage}
   * (a runtime attach). Before the first step. Scheduler thread.
   */
  public void detachStorageAtStart() {
    if (unified != null) {
      unified.storageEnabled = false;
    }
  }

  /**
   * {@code unified}: a runtime attach of the storage backend that every rank handles at the same step
   * ({@code scheduler.py::attach_hicache_storage_wrapped}, {@code storage_attachment.py::attach} @db570fe6;
   * HiCacheUnified.tla {@code RecvComplete} with Knob attach). {@code localOk} is this rank's backend
   * initialisation; with {@code agree} (the fix of F1, docs/explanation/findings/README.md) the outcome is MIN-reduced first,
   * without it each rank sets {@code enable_storage} from its own outcome. Scheduler thread.
   */
  public void attachStorage(boolean localOk, boolean agree) {
    if (unified == null || storage == null) {
      return;
    }
    boolean ok = localOk;
    if (agree) {
      ok = sync.reduce(SyncPoint.ATTACH, dev.hicachesync.collective.ReduceOp.MIN, new long[] {ok ? 1 : 0})[0] == 1;
      after(SyncPoint.ATTACH);
    }
    unified.storageEnabled = ok;
  }

  /**
   * {@code unified} with {@code --hicache-host-memory-mode buffer_only} (#34798, HiCacheUnified.tla Knob
   * {@code buffer_only}): a storage hit whose host slots cannot be allocated at the hit drain is parked and
   * retried first at every later hit drain, instead of revoked. Only the park-and-retry of the hit drain:
   * this implementation's host tier stays a cache (docs/explanation/unified.md, "Buffer-only host memory"). Before the
   * first step. Scheduler thread.
   */
  public void parkStorageHits() {
    if (unified != null) {
      unified.bufferOnly = true;
    }
  }

  /** Starts the L3 backup of a node that just reached the host: protect it until S3 sees the ack. */
  void storageBackup(TreeNode node) {
    storageBackup(node, seeds(node));
  }

  /** {@link #storageBackup(TreeNode)} with the node's content seeds ({@link #seeds(TreeNode)}) known. */
  private void storageBackup(TreeNode node, long[] seeds) {
    int[] hostPages = node.hostPages();
    PageKey[] keys = node.pageKeys();
    long id = node.id();
    tree.protectHost(node);
    host.markBusy(hostPages, 0, hostPages.length);
    ReadyQueue.Entry<Long> ack = backupAckQueue.add(id); // the backup thread is sequential: FIFO acks
    env.background(TransferKind.STORAGE_WRITE, hostPages.length, ok -> {
      if (backupThreadDead) {
        return; // #38428: no thread is left to write or ack
      }
      if (faults.backupThreadDies() || faults.backupRaiseAcked()) {
        if (!backupRaised) {
          backupRaised = true; // the backend raises once, at this rank's first backup
          if (faults.backupThreadDies()) {
            backupThreadDead = true; // backup_thread_func catches only queue.Empty (#38428)
            return;
          }
          host.clearBusy(hostPages, 0, hostPages.length); // #38427: caught, acked, not stored
          ack.markReady();
          return;
        }
      }
      for (int i = 0; i < keys.length; i++) {
        data.store(storage, keys[i].withSuffix(storageSuffix), hostPages[i], seeds == null ? 0 : seeds[i]);
      }
      stats.storageWritePages.addAndGet(keys.length);
      host.clearBusy(hostPages, 0, hostPages.length);
      ack.markReady();
    });
  }

  /**
   * Writes a node through to the host: slots, copy event, lock, queued ack ({@code write_backup}). Returns
   * false without touching anything when its parent is not backed up yet: the backup invariant (a parent
   * reaches the host before its child) keeps a device-only node from sitting over host-only children, a
   * shape device eviction could otherwise only clear by dropping the children's host pages.
   */
  boolean writeBackup(TreeNode node) {
    TreeNode parent = node.parent();
    if (parent != tree.root() && !parent.onHost()) {
      return false;
    }
    int pages = node.tokens() / config.pageSize();
    int[] slots = allocateHost(pages);
    if (slots == null) {
      return false;
    }
    tree.setHost(node, slots);
    long[] seeds = seeds(node);
    TransferEvent ev = data.toHost(env.copy(TransferKind.DEVICE_TO_HOST, pages), node.devicePages(), slots,
        seeds);
    host.markBusy(slots, 0, pages);
    tree.lockRef(node);
    writeAcks.add(new WriteAck(node.id(), ev, slots, seeds));
    stats.deviceToHostCopies++;
    stats.deviceToHostPages += pages;
    return true;
  }

  /** Returns {@code pages} host slots, evicting host-only leaves if needed, or null. */
  int[] allocateHost(int pages) {
    int[] r = host.allocate(pages);
    if (r == null) {
      int want = pages - host.pool().freeCount();
      stats.hostEvictedPages += tree.evictHost(want, s -> freeHost(s, "host eviction"));
      r = host.allocate(pages);
    }
    allocHash = Mix64.mix(Mix64.mix(Mix64.mix(allocHash, 2), pages), r == null ? -1 : r.length == 0 ? -2 : r[0]);
    return r;
  }

  void freeHost(int[] slots, String why) {
    allocHash = Mix64.mix(Mix64.mix(allocHash, 3), slots.length);
    host.free(slots, why);
  }

  /**
   * Free-running: waits until the prefetch thread has finished S7 for every operation handed to it so far,
   * before the scheduler stops a prefetch (S5/S6). Why: {@code hostReleaseQueue} has two producers, the
   * prefetch thread (S7's slots past the hit, in S7 order) and the scheduler (the tail of a stopped
   * prefetch); S3 pops the MIN count of whole entries, so their order must be the same on every rank.
   * Without this wait a rank whose S7 had run queued the tail after the S7 entries of the pass, a rank whose
   * S7 had not run got it queued by the prefetch thread right after the operation's own entry, and S3 freed
   * different slots (and page counts) per rank: TreeAgreement, about 1 run in 80 of
   * {@code FreeRunningServingLoopTest.mergedOnCp2Tp2}. SGLang avoids the count divergence differently
   * ({@code append_host_mem_release} queues one entry per page; the slots each rank frees may still differ,
   * which SGLang does not compare); see docs/explanation/concurrency.md. Stepped and inline the passes are already done
   * when the scheduler gets here: no wait. Scheduler thread.
   */
  void awaitHandedS7() {
    if (threads != null && !threads.isStepped()) {
      int handed = s7Handed;
      threads.awaitCondition(() -> s7Done.get() >= handed);
    }
  }

  /**
   * Queues the slots [releaseFrom, hit) of a stopped prefetch for release (S5/S6 decided it) and marks the
   * entry ready once this rank's reader has stopped: slots a read still writes are never freed (B7's fix).
   */
  void releaseTail(PrefetchOperation op) {
    op.queueTail(hostReleaseQueue);
    updateTail(op);
  }

  /** Marks the tail entry ready when the op's S7 outcome has arrived here and no read is in flight. */
  void updateTail(PrefetchOperation op) {
    op.markTailReadyIfReaderStopped(faults.releaseTailEarly());
  }

  /**
   * Reads pages [from, to) of {@code op} into its host slots; false if one is missing or corrupt (a failed
   * read). A corrupt object ({@link CorruptPageException}: flipped or cut bytes, another key's object) is
   * what SGLang's storage read returning failure is: the batch fails, the prefetch ends short at the pages
   * read before it, S5/S6 agree on that through their MIN, and the object never reaches the tree.
   */
  boolean readPages(PrefetchOperation op, int from, int to) {
    // Seeds of this batch's pages only: seeding the whole key per batch made a long prefetch quadratic.
    boolean moves = data.moves();
    int ps = config.pageSize();
    for (int i = from; i < to; i++) {
      long seed = moves ? SharedPageSeeds.seed(op.tokens, i * ps, ps) : 0; // the replicas read the same pages
      try {
        if (!data.load(storage, op.keys[i], op.hostPages[i], seed)) {
          return false;
        }
      } catch (CorruptPageException e) {
        stats.storageCorruptPages.incrementAndGet();
        if (e instanceof ForgedPageException) {
          stats.storageForgedPages.incrementAndGet();
        }
        return false;
      }
    }
    return true;
  }

  /** Returns the content seed of each page of {@code node}, or null when the data path moves no bytes. */
  long[] seeds(TreeNode node) {
    return data.moves() ? PageSeeds.of(node, config.pageSize()) : null;
  }

  /** Returns the content seed of each page of {@code op}'s key, or null when the data path moves no bytes. */
  long[] seeds(PrefetchOperation op) {
    return data.moves() ? PageSeeds.of(op.tokens, op.hostPages.length, config.pageSize()) : null;
  }

  /** The tree's view of the pools during eviction. */
  private final class Sink implements DeviceEvictionSink {
    @Override
    public void freeDevice(int[] pages) {
      allocHash = Mix64.mix(Mix64.mix(allocHash, 4), pages.length);
      device.free(pages);
    }

    @Override
    public void freeHost(int[] pages) {
      stats.hostEvictedPages += pages.length;
      CacheController.this.freeHost(pages, "device eviction of a device-only parent");
    }

    @Override
    public boolean backupBeforeEviction(TreeNode node) {
      if (config.writePolicy() != WritePolicy.WRITE_BACK) {
        return false;
      }
      int pages = node.tokens() / config.pageSize();
      int[] slots = allocateHost(pages);
      if (slots == null) {
        return false;
      }
      TransferEvent ev = data.toHost(env.copy(TransferKind.DEVICE_TO_HOST, pages), node.devicePages(), slots,
          seeds(node));
      ev.await(); // write_back is synchronous: the device pages go only once the host has them
      tree.setHost(node, slots);
      stats.deviceToHostCopies++;
      stats.deviceToHostPages += pages;
      if (storageActive()) {
        storageBackup(node);
      }
      return true;
    }
  }

  /** Records that a sync point's decision has been applied. */
  void after(SyncPoint p) {
    observer.afterSync(p);
  }
}
