package dev.hicachesync.controller;

import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.env.TransferKind;
import dev.hicachesync.tree.InsertResult;
import dev.hicachesync.tree.RadixTree;
import dev.hicachesync.tree.TreeNode;

/**
 * Device → host writes of one rank: write-through ({@code write_backup}: slots, copy, lock, a queued write
 * ack that S1 pops) and write-back's synchronous copy of a node about to lose its device pages. Scheduler
 * thread only.
 */
final class HostWrites {
  private final RankState s;
  /** Whether every insert's last node is backed up to storage at once ({@link #afterInsert}). */
  private boolean backupAtInsert;
  /** Buffer-only host memory's write staging, or null: an insert's backup then goes through it. */
  private BufferWriteStaging staging;

  HostWrites(RankState s) {
    this.s = s;
  }

  /**
   * Writes a node through to the host: slots, copy event, lock, queued ack ({@code write_backup}). Returns
   * false without touching anything when its parent is not backed up yet: the backup invariant (a parent
   * reaches the host before its child) keeps a device-only node from sitting over host-only children, a
   * shape device eviction could otherwise only clear by dropping the children's host pages.
   */
  boolean writeBackup(TreeNode node) {
    RadixTree tree = s.tree();
    TreeNode parent = node.parent();
    if (parent != tree.root() && !parent.onHost()) {
      return false;
    }
    int pages = node.tokens() / s.config().pageSize();
    int[] slots = s.pools().allocateHost(pages);
    if (slots == null) {
      return false;
    }
    tree.setHost(node, slots);
    long[] seeds = s.data().seeds(node);
    TransferEvent ev = s.data().path().toHost(s.env().copy(TransferKind.DEVICE_TO_HOST, pages), node.devicePages(),
        slots, seeds);
    s.pools().host().markBusy(slots, 0, pages);
    tree.lockRef(node);
    s.acks().addWrite(new WriteAck(node.id(), ev, slots, seeds));
    s.stats().deviceToHostCopy(pages);
    return true;
  }

  /**
   * Write-back: copies a device-only node to the host before eviction takes its device pages, and waits for
   * the copy; false under the other write policies or when no host slots can be had.
   */
  boolean backupBeforeEviction(TreeNode node) {
    if (s.config().writePolicy() != WritePolicy.WRITE_BACK || !copyToHost(node)) {
      return false;
    }
    if (s.storage().active()) {
      s.storage().backup(node);
    }
    return true;
  }

  /** From now on {@link #afterInsert} backs up each insert's last node ({@code CacheController#backupAtInsert}). */
  void backupAtInsert() {
    backupAtInsert = true;
  }

  /** From now on {@link #afterInsert} stages each insert's last node's backup through {@code staging}. */
  void stageWrites(BufferWriteStaging staging) {
    this.staging = staging;
  }

  /**
   * The insert {@code r} just happened: its last node's backup intent is queued for write staging, or the node is
   * backed up to storage at once, if {@link #stageWrites} or {@link #backupAtInsert} asked so.
   */
  void afterInsert(InsertResult r) {
    if (r.lastNode() == null) {
      return;
    }
    if (staging != null) {
      staging.enqueueBackupIntent(r.lastNode());
    } else if (backupAtInsert) {
      writeBackupStorage(r.lastNode());
    }
  }

  /** {@code flush_pending_writes} after S123's drains ({@link BufferWriteStaging}); nothing without staging. */
  void flushPendingWrites() {
    if (staging != null) {
      staging.flushPendingWrites();
    }
  }

  /** Whether the drained backup ack {@code id} was a staged write's, whose staging page is then freed. */
  boolean finishStorageWriteAck(long id) {
    return staging != null && staging.finishStorageWriteAck(id);
  }

  /**
   * {@code write_backup_storage}: queues the storage backup of {@code node} (its ack is S123's backup count),
   * first copying it to the host, synchronously, if it is not there; false when storage is not enabled or no
   * host slots can be had. SGLang calls it when a write-through's ack is drained; {@code HiCacheUnified.tla}
   * folds that write into the admission (Admit's {@code bk}), and so does this call.
   */
  boolean writeBackupStorage(TreeNode node) {
    if (!s.storage().active() || !node.onHost() && !copyToHost(node)) {
      return false;
    }
    s.storage().backup(node);
    return true;
  }

  /** Copies device-only {@code node} to new host slots and waits for the copy; false when there are none. */
  private boolean copyToHost(TreeNode node) {
    int pages = node.tokens() / s.config().pageSize();
    int[] slots = s.pools().allocateHost(pages);
    if (slots == null) {
      return false;
    }
    TransferEvent ev = s.data().path().toHost(s.env().copy(TransferKind.DEVICE_TO_HOST, pages), node.devicePages(),
        slots, s.data().seeds(node));
    ev.await(); // write_back is synchronous: the device pages go only once the host has them
    s.tree().setHost(node, slots);
    s.stats().deviceToHostCopy(pages);
    return true;
  }
}
