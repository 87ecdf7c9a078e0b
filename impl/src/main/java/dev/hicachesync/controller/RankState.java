package dev.hicachesync.controller;

import dev.hicachesync.storage.StorageBackend;
import dev.hicachesync.sync.SyncLayer;
import dev.hicachesync.sync.SyncObserver;
import dev.hicachesync.sync.SyncPoint;
import dev.hicachesync.tree.RadixTree;

/**
 * What one rank's protocol steps share: its configuration and environment, its sync layers, the radix tree,
 * and one holder per kind of state, each owning its fields ({@link Pools} the device pages and host slots,
 * {@link CopyAcks} the write and load acks, {@link StorageQueues} the revoke, backup-ack and host-release
 * queues, {@link Prefetches} the ongoing prefetches and the prefetch thread's hand-over, {@link StorageTier}
 * the L3 backend and its backup thread, {@link HostWrites} the writes to the host, {@link PageData} where
 * copies move bytes, {@link DecisionHashes} the digests). The steps of every protocol version read and
 * change the rank through these; which steps run is the {@link ProtocolSteps} chosen at construction.
 *
 * <p>Threads: see each holder. The sync layers and the attached threads are set before the first step.
 */
final class RankState {
  private final ControllerConfig config;
  private final ControllerFaults faults;
  private final ControllerEnv env;
  private final SyncObserver observer;
  private final SyncLayer sync;
  private final SyncLayer prefetchSync;
  /**
   * The completion-sync thread's layer ({@code prefetch_sync_thread_func}, version {@code unified}): its own
   * groups ({@link #useCompletionSync}); {@link #prefetchSync} until then, which only a stepped or inline
   * run may share (the two threads then take turns in an order every rank shares).
   */
  private SyncLayer completionSync;
  /** Stage 0's prefetch tickets with PP (#36700), or null: every stage queries storage and S7 spans the pp group. */
  private PpPrefetchTicket ppPrefetchTicket;
  private final RadixTree tree;
  private final ControllerStats stats = new ControllerStats();
  private final DecisionHashes hashes = new DecisionHashes();
  private final Pools pools;
  private final CopyAcks acks = new CopyAcks(this);
  private final StorageQueues queues = new StorageQueues(this);
  private final Prefetches prefetches = new Prefetches(this);
  private final StorageTier storage;
  private final HostWrites writes = new HostWrites(this);
  private final PageData data;
  /**
   * The rank's own threads (prefetch, prefetch I/O, backup, copy completion), or null: then the prefetch
   * pass runs on the caller's thread (tests that drive a controller directly).
   */
  private ControllerThreads threads;
  /** The rank's sidecar pool ({@link SidecarPool}), or null: most KV pools have none. Set before the first step. */
  private SidecarPool sidecar;

  RankState(ControllerConfig config, ControllerFaults faults, ControllerEnv env, SyncLayer sync,
      SyncLayer prefetchSync, SyncObserver observer, StorageBackend storage, String storageSuffix) {
    this.config = config;
    this.faults = faults;
    this.env = env;
    this.sync = sync;
    this.prefetchSync = prefetchSync;
    this.completionSync = prefetchSync;
    this.observer = observer == null ? SyncObserver.NONE : observer;
    this.storage = new StorageTier(this, config.storage() ? storage : null, storageSuffix);
    this.tree = new RadixTree(config.pageSize(), this.storage.attached());
    this.pools = new Pools(config, faults, tree, stats, hashes, node -> this.writes.backupBeforeEviction(node),
        pages -> this.acks.loadLocks().queuedInto(pages));
    this.data = new PageData(config.pageSize());
  }

  ControllerConfig config() {
    return config;
  }

  /** Deliberate bugs, from the simulator's seam only ({@link ControllerFaults#NONE} otherwise). */
  ControllerFaults faults() {
    return faults;
  }

  ControllerEnv env() {
    return env;
  }

  /** The scheduler thread's sync layer (S1–S6). */
  SyncLayer sync() {
    return sync;
  }

  /** The prefetch thread's sync layer (S7), on its own groups. */
  SyncLayer prefetchSync() {
    return prefetchSync;
  }

  /** The completion-sync thread's layer ({@link #prefetchSync} unless {@link #useCompletionSync} was called). */
  SyncLayer completionSync() {
    return completionSync;
  }

  /** Gives the completion sync a layer of its own (before the first step). */
  void useCompletionSync(SyncLayer layer) {
    if (layer == sync || layer == prefetchSync) {
      throw new IllegalArgumentException("the completion sync needs a layer of its own");
    }
    this.completionSync = layer;
  }

  /** The prefetch thread's side of stage 0's prefetch tickets, or null when the run has none. */
  PpPrefetchTicket ppPrefetchTicket() {
    return ppPrefetchTicket;
  }

  /** Makes the prefetch thread take part in stage 0's prefetch tickets (before the first step). */
  void usePpPrefetchTicket(PpPrefetchTicket ticket) {
    this.ppPrefetchTicket = ticket;
  }

  /** Returns the collectives the sync layers (scheduler, prefetch, completion sync) issued so far. */
  long collectives() {
    return sync.collectives() + prefetchSync.collectives()
        + (completionSync == prefetchSync ? 0 : completionSync.collectives());
  }

  RadixTree tree() {
    return tree;
  }

  ControllerStats stats() {
    return stats;
  }

  DecisionHashes hashes() {
    return hashes;
  }

  Pools pools() {
    return pools;
  }

  CopyAcks acks() {
    return acks;
  }

  StorageQueues queues() {
    return queues;
  }

  Prefetches prefetches() {
    return prefetches;
  }

  StorageTier storage() {
    return storage;
  }

  HostWrites writes() {
    return writes;
  }

  PageData data() {
    return data;
  }

  /** The attached threads, or null (the prefetch pass then runs on the caller's thread). */
  ControllerThreads threads() {
    return threads;
  }

  void attachThreads(ControllerThreads threads) {
    this.threads = threads;
  }

  /** The sidecar pool, or null when this rank's KV pool has none. */
  SidecarPool sidecar() {
    return sidecar;
  }

  void attachSidecar(SidecarPool pool) {
    this.sidecar = pool;
  }

  /** Returns [write acks, load acks, revokes, backup acks, host releases, prefetch queue] still queued. */
  int[] queueSizes() {
    int[] control = queues.sizes();
    return new int[] {acks.writesQueued(), acks.loadsQueued(), control[0], control[1], control[2],
        prefetches.s7QueueSize()};
  }

  /** Records that a sync point's decision has been applied. */
  void after(SyncPoint p) {
    observer.afterSync(p);
  }
}
