package dev.hicachesync.controller;

import dev.hicachesync.env.TransferKind;
import dev.hicachesync.storage.CorruptPageException;
import dev.hicachesync.storage.ForgedPageException;
import dev.hicachesync.storage.PageKey;
import dev.hicachesync.storage.StorageBackend;
import dev.hicachesync.tree.TreeNode;

/**
 * One rank's L3: the storage backend (none when storage is off), this rank's key space in it (its KV shard),
 * whether backups are enabled ({@code enable_storage}: always while a backend is attached, except in
 * {@code unified}, where a runtime attach sets it), the backup thread's writes, and the prefetch reads.
 */
final class StorageTier {
  private final RankState s;
  private final StorageBackend backend;
  private final String suffix;
  private boolean enabled;
  /** The storage backend raised in this rank's backup thread (a fault), and whether the thread died of it. */
  private boolean backupRaised;
  private boolean backupThreadDead;

  StorageTier(RankState s, StorageBackend backend, String suffix) {
    this.s = s;
    this.backend = backend;
    this.suffix = suffix;
    this.enabled = backend != null;
  }

  /** Whether a backend is attached (prefetches and the storage control queues exist). */
  boolean attached() {
    return backend != null;
  }

  /** Whether nodes are backed up to storage: a backend is attached and enabled. */
  boolean active() {
    return backend != null && enabled;
  }

  /** Sets {@code enable_storage} ({@code unified}'s runtime attach). Scheduler thread. */
  void enable(boolean on) {
    this.enabled = on;
  }

  /** The backend; attached only. */
  StorageBackend backend() {
    return backend;
  }

  /** This rank's key space in the storage. */
  String suffix() {
    return suffix;
  }

  /** Starts the L3 backup of a node that just reached the host: protect it until S3 sees the ack. */
  void backup(TreeNode node) {
    backup(node, s.data().seeds(node));
  }

  /** {@link #backup(TreeNode)} with the node's content seeds ({@link PageData#seeds(TreeNode)}) known. */
  void backup(TreeNode node, long[] seeds) {
    int[] hostPages = node.hostPages();
    PageKey[] keys = node.pageKeys();
    long id = node.id();
    HostSlotLedger host = s.pools().host();
    ControllerFaults faults = s.faults();
    s.tree().protectHost(node);
    host.markBusy(hostPages, 0, hostPages.length);
    ReadyQueue.Entry<Long> ack = s.queues().addBackupAck(id); // the backup thread is sequential: FIFO acks
    s.env().background(TransferKind.STORAGE_WRITE, hostPages.length, ok -> {
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
      KvData data = s.data().path();
      for (int i = 0; i < keys.length; i++) {
        data.store(backend, keys[i].withSuffix(suffix), hostPages[i], seeds == null ? 0 : seeds[i]);
      }
      s.stats().storageWritten(keys.length);
      host.clearBusy(hostPages, 0, hostPages.length);
      ack.markReady();
    });
  }

  /**
   * Reads pages [from, to) of {@code op} into its host slots; false if one is missing or corrupt (a failed
   * read). A corrupt object ({@link CorruptPageException}: flipped or cut bytes, another key's object) is
   * what SGLang's storage read returning failure is: the batch fails, the prefetch ends short at the pages
   * read before it, S5/S6 agree on that through their MIN, and the object never reaches the tree.
   */
  boolean readPages(PrefetchOperation op, int from, int to) {
    // Seeds of this batch's pages only: seeding the whole key per batch made a long prefetch quadratic.
    KvData data = s.data().path();
    boolean moves = data.moves();
    int ps = s.config().pageSize();
    for (int i = from; i < to; i++) {
      long seed = moves ? SharedPageSeeds.seed(op.tokens(), i * ps, ps) : 0; // the replicas read the same pages
      try {
        if (!data.load(backend, op.keys().get(i), op.hostPages()[i], seed)) {
          return false;
        }
      } catch (CorruptPageException e) {
        s.stats().corruptPageRead(e instanceof ForgedPageException);
        return false;
      }
    }
    return true;
  }

  /**
   * The L3 keys of the {@code pages} pages of {@code key} below {@code anchor}: each page's key chains the one
   * before it (the anchor's last page first), as SGLang's hash chain of a prefix, with this rank's suffix.
   * Shared by every version's prefetch issue; chained as far as they are read ({@link PrefetchKeys}).
   */
  PrefetchKeys keys(TreeNode anchor, int[] key, int pages) {
    PageKey[] prev = anchor.pageKeys();
    PageKey last = prev == null || prev.length == 0 ? null : prev[prev.length - 1];
    return new PrefetchKeys(last, key, pages, s.config().pageSize(), suffix);
  }
}
