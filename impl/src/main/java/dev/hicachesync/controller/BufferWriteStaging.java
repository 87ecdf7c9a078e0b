package dev.hicachesync.controller;

import dev.hicachesync.env.TransferKind;
import dev.hicachesync.storage.PageKey;
import dev.hicachesync.tree.TreeNode;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Buffer-only host memory's write staging ({@code --hicache-host-memory-mode buffer_only}, #34798;
 * HiCacheUnified.tla's Knob {@code buffer_only}, actions {@code Admit}, {@code BufFlush}, {@code BackupOk}): the
 * host pool is no cache tier, so a finished node reaches storage through a staging page that it holds only from
 * its write's launch until the write's ack is drained.
 *
 * <ul>
 *   <li>{@link #enqueueBackupIntent}: the admitted node's backup intent waits in {@code pending_write_queue};
 *   <li>{@link #flushPendingWrites} ({@code flush_pending_writes}, after S123's drains): the head intents get
 *       staging pages while the pool has them (head of line: the rest wait for a later step), and their storage
 *       writes go to the backup thread, each acked on {@code ack_backup_queue} (S123's backup count);
 *   <li>{@link #finishStorageWriteAck} ({@code finish_storage_write_ack}): the drain of a write's ack frees its
 *       staging page, on the scheduler at a synced point, so every rank frees the same pages at the same step
 *       (buffer_mode/pipeline.py's lockstep contract).
 * </ul>
 * With {@code freedOnBackupThread} (bug {@code STAGE_LOCAL}) the backup thread frees the staging page when its
 * write lands, at the rank's own time: the pools of the ranks part ({@code AllocAgreement}). Scheduler thread,
 * except the write's completion (backup thread).
 */
final class BufferWriteStaging {
  private final RankState s;
  private final boolean freedOnBackupThread;
  private final ArrayDeque<TreeNode> pendingWrites = new ArrayDeque<>();
  /** The staging pages of each write not drained yet, by its ack id (negative: no tree node's id). */
  private final Map<Long, int[]> staged = new ConcurrentHashMap<>();
  private long lastAck;

  BufferWriteStaging(RankState s, boolean freedOnBackupThread) {
    this.s = s;
    this.freedOnBackupThread = freedOnBackupThread;
  }

  /** {@code enqueue_backup_intent}: {@code node}'s storage backup waits for a staging page. */
  void enqueueBackupIntent(TreeNode node) {
    if (s.storage().active()) {
      pendingWrites.addLast(node);
    }
  }

  /** {@code flush_pending_writes}: stages the head intents while the pool has pages and queues their writes. */
  void flushPendingWrites() {
    while (!pendingWrites.isEmpty()) {
      TreeNode node = pendingWrites.peekFirst();
      int pages = node.tokens() / s.config().pageSize();
      int[] slots = s.pools().allocateHost(pages);
      if (slots == null) {
        return; // head of line: it waits for a page a later drain frees
      }
      pendingWrites.pollFirst();
      write(node, slots);
    }
  }

  private void write(TreeNode node, int[] slots) {
    long id = --lastAck;
    PageKey[] keys = node.pageKeys();
    long[] seeds = s.data().seeds(node);
    HostSlotLedger host = s.pools().host();
    host.markBusy(slots, 0, slots.length); // the device-to-host copy into the staging page is folded in here
    staged.put(id, slots);
    ReadyQueue.Entry<Long> ack = s.queues().addBackupAck(id);
    s.env().background(TransferKind.STORAGE_WRITE, slots.length, ok -> {
      KvData data = s.data().path();
      for (int i = 0; i < keys.length; i++) {
        data.store(s.storage().backend(), keys[i].withSuffix(s.storage().suffix()), slots[i],
            seeds == null ? 0 : seeds[i]);
      }
      s.stats().storageWritten(keys.length);
      host.clearBusy(slots, 0, slots.length);
      if (freedOnBackupThread) { // STAGE_LOCAL: freed here, at this rank's own time
        s.pools().freeHost(staged.remove(id), "staging page freed on the backup thread");
      }
      ack.markReady();
    });
  }

  /**
   * {@code finish_storage_write_ack}: the drained ack {@code id} was a staged write's: its staging page goes back
   * to the pool (already back under {@code STAGE_LOCAL}). False when {@code id} is no staged write's (a node's).
   */
  boolean finishStorageWriteAck(long id) {
    if (id >= 0) {
      return false;
    }
    int[] slots = staged.remove(id);
    if (slots != null) {
      s.pools().freeHost(slots, "staging page of a drained storage write ack");
    }
    return true;
  }
}
