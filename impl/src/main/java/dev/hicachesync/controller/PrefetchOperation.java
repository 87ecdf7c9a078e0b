package dev.hicachesync.controller;

import dev.hicachesync.storage.PageKey;
import dev.hicachesync.tree.TreeNode;

/**
 * One storage prefetch of one request on one rank ({@code PrefetchOperation} in {@code
 * cache_controller.py}): the key, its host slots, the synced decisions and this rank's read progress.
 *
 * <p>Decisions ({@link #hitPages()}, revoked, terminated, inserted) are made at sync points and are equal on
 * every rank; progress ({@link #completedPages()}, whether a read is in flight) is rank-local.
 *
 * <p>Concurrency contract: three threads touch an operation. The <b>prefetch thread</b> writes the S7
 * outcome ({@code hitPages}, {@code revoked}) before the operation's deposit; the <b>I/O thread</b> lands
 * batches ({@link #batchLanded}); the <b>scheduler</b> reads progress (S4/S5) and stops the reader
 * ({@link #stopAt}). The hand-off between the I/O thread and the scheduler is the one INV-7 ({@code
 * HostSlotSafety}, B7's fix) depends on: "is a read in flight?" and "has the scheduler stopped the
 * reader?" are decided together under this object's monitor, in {@link #beginReading}, {@link
 * #batchLanded}, {@link #stopAt}, {@link #queueTail} and {@link #markTailReadyIfReaderStopped}; so the
 * tail of slots is never marked ready in the instant between one batch landing and the next being issued.
 * Fields another thread reads without the monitor are {@code volatile}. Lincheck checks the hand-off
 * ({@code PrefetchProgressLincheckTest}); why no jcstress test: every cross-thread write is either under
 * the monitor or to a {@code volatile} field, so there is no data race for a weaker memory model to
 * expose beyond what Lincheck's sequentially consistent model explores.
 */
public final class PrefetchOperation {
  private final String rid;
  private final TreeNode anchor;
  private final int[] tokens;
  private final PrefetchKeys keys;
  /**
   * The host slots of the key. Allocated at issue, except in {@code unified}, where the scheduler allocates
   * the synced hit's slots when it drains the hit queue (empty until then); written once, before the reads.
   */
  private volatile int[] hostPages;
  private final long issueTick;
  private volatile PrefetchState state = PrefetchState.ISSUED;
  /** Synced storage hit in pages (S7), -1 before. Prefetch thread writes, before the deposit. */
  private volatile int hitPages = -1;
  private volatile boolean revoked;
  /** The S7 outcome has reached this rank's scheduler (rank-local time). Written under the monitor. */
  private volatile boolean deposited;
  /** This rank's I/O thread has a batch in flight. Written under the monitor. */
  private volatile boolean reading;
  /** A read failed here: this rank's operation is terminated locally (S4 spreads it). Under the monitor. */
  private volatile boolean ioFailed;
  /** Pages read so far; the I/O thread writes it under the monitor, the scheduler polls it (S4, S5). */
  private volatile int completedPages;
  /** First slot to hand back once reading stops, set by S5/S6 termination; -1 while running. Under the monitor. */
  private volatile int releaseFrom = -1;
  /** S7's queue entries: the revoke, and the slots past the hit (all of them when revoked). */
  private volatile ReadyQueue.Entry<String> revokeEntry;
  private volatile ReadyQueue.Entry<int[]> s7Release;
  // ---- version unified only (controller.Unified*): scheduler thread.
  /** The hit drain allocated {@link #hostPages} (HiCacheUnified.tla {@code pf.host}). */
  private boolean hostAllocated;
  /** Batch acks handed to the completion-sync thread so far (one per pass while reading). */
  private int pickedBatches;
  /** Batch acks the scheduler drained at S123 so far. */
  private int drainedBatches;
  /** Synced completed pages the scheduler applied ({@code pf.comp}); frozen once terminated. */
  private int syncedPages;
  /** Pages the termination or abort kept (inserted or released then), -1 while ongoing. */
  private int settledPages = -1;
  /** The completion-sync thread queued this operation's final batch ack (its own record of completion). */
  private volatile boolean finalAckQueued;

  /** The slots [releaseFrom, hit) queued at termination. Guarded by this. */
  private ReadyQueue.Entry<int[]> tail;

  /** Returns the storage read batches of the synced hit ({@code unified}: one completion ack each). */
  int batches(int ioBatchPages) {
    return hitPages <= 0 ? 0 : (hitPages + ioBatchPages - 1) / ioBatchPages;
  }

  PrefetchOperation(String rid, TreeNode anchor, int[] tokens, PageKey[] keys, int[] hostPages, long tick) {
    this(rid, anchor, tokens, PrefetchKeys.of(keys), hostPages, tick);
  }

  PrefetchOperation(String rid, TreeNode anchor, int[] tokens, PrefetchKeys keys, int[] hostPages, long tick) {
    this.rid = rid;
    this.anchor = anchor;
    this.tokens = tokens;
    this.keys = keys;
    this.hostPages = hostPages;
    this.issueTick = tick;
  }

  /** Returns the request id. */
  public String rid() {
    return rid;
  }

  /** Returns the state. */
  public PrefetchState state() {
    return state;
  }

  /** Returns the pages prefetched for (the key beyond device and host hits). */
  public int pages() {
    return keys.size();
  }

  /** Returns the synced storage hit in pages, -1 before S7. */
  public int hitPages() {
    return hitPages;
  }

  /** Returns the pages this rank has read so far (rank-local). */
  public int completedPages() {
    return completedPages;
  }

  // ================================================================ the key and its slots

  TreeNode anchor() {
    return anchor;
  }

  int[] tokens() {
    return tokens;
  }

  /** The L3 keys of the prefetched pages, with this rank's suffix (chained as far as they are read). */
  PrefetchKeys keys() {
    return keys;
  }

  /** The host slots of the key (in {@code unified}, of the synced hit once the hit drain granted them). */
  int[] hostPages() {
    return hostPages;
  }

  long issueTick() {
    return issueTick;
  }

  // ================================================================ decisions, made at sync points

  void moveTo(PrefetchState next) {
    this.state = next;
  }

  /** S7 decided the synced hit. Prefetch thread, before the deposit. */
  void hitSynced(int hit) {
    this.hitPages = hit;
  }

  boolean revoked() {
    return revoked;
  }

  void setRevoked(boolean revoked) {
    this.revoked = revoked;
  }

  /** S7's queue entries: the revoke, and the slots past the hit (all of them when revoked); either may be null. */
  void s7Entries(ReadyQueue.Entry<int[]> release, ReadyQueue.Entry<String> revoke) {
    this.s7Release = release;
    this.revokeEntry = revoke;
  }

  /** The S7 outcome reached this rank: S3 may pop its entries now. */
  void markS7EntriesReady() {
    if (s7Release != null) {
      s7Release.markReady();
    }
    if (revokeEntry != null) {
      revokeEntry.markReady();
    }
  }

  // ================================================================ this rank's progress

  /** Whether the S7 outcome has reached this rank's scheduler. */
  boolean deposited() {
    return deposited;
  }

  /** {@code unified}: the S7 outcome reached this rank's hit queue. */
  void markDeposited() {
    this.deposited = true;
  }

  /** Whether this rank's I/O thread has a batch in flight. */
  boolean reading() {
    return reading;
  }

  /** Whether a read failed here (this rank's operation is terminated locally; S4 spreads it). */
  boolean ioFailed() {
    return ioFailed;
  }

  // ================================================================ version unified only: scheduler thread

  /** The hit drain allocated the hit's slots ({@code HiCacheUnified.tla} {@code pf.host}). */
  void grantSlots(int[] slots) {
    this.hostPages = slots;
    this.hostAllocated = true;
  }

  boolean hostAllocated() {
    return hostAllocated;
  }

  /** Picks the next batch ack for the completion sync; returns its index. */
  int pickBatch() {
    return pickedBatches++;
  }

  /** Whether every batch ack has been picked for the completion sync. */
  boolean allBatchesPicked(int ioBatchPages) {
    return pickedBatches == batches(ioBatchPages);
  }

  /** One batch ack was drained at S123; returns whether it was the final one. */
  boolean drainBatch(int ioBatchPages) {
    drainedBatches++;
    return drainedBatches == batches(ioBatchPages);
  }

  /** Synced completed pages applied ({@code pf.comp}). */
  void addSynced(int pages) {
    syncedPages += pages;
  }

  int syncedPages() {
    return syncedPages;
  }

  /** The completion-sync thread queued the final batch ack (its thread, not the scheduler, records it). */
  void markFinalAckQueued() {
    finalAckQueued = true;
  }

  /** Whether the completion-sync thread has queued the final batch ack, drained or not. */
  boolean finalAckQueued() {
    return finalAckQueued;
  }

  /** Pages the termination or abort kept, -1 while ongoing. */
  int settledPages() {
    return settledPages;
  }

  void settle(int kept) {
    this.settledPages = kept;
  }

  /** Returns whether the scheduler has stopped this operation (S4/S5/S6). */
  boolean terminatedByScheduler() {
    return releaseFrom >= 0;
  }

  // ================================================================ the I/O thread ↔ scheduler hand-off

  /**
   * The S7 outcome reaches this rank (deposit): returns whether the I/O thread starts reading (then a
   * read is in flight from now on), false when there is nothing to read (revoked, no hit, or already
   * stopped by the scheduler). I/O thread.
   */
  synchronized boolean beginReading() {
    deposited = true;
    if (revoked || terminatedByScheduler() || hitPages == 0) {
      return false;
    }
    state = PrefetchState.READING;
    reading = true;
    return true;
  }

  /**
   * A batch ending at page {@code completedTo} landed ({@code ok}) or failed: returns whether the reader
   * goes on, in which case the next batch counts as in flight before the monitor is released. I/O thread.
   *
   * <p>Why the monitor is not what makes this safe (a mutant without {@code synchronized} passes every test,
   * and is equivalent): every field written here ({@code completedPages}, {@code ioFailed}, {@code reading})
   * is written by the I/O thread only, and each is {@code volatile}; the one field another thread writes and
   * this reads, {@code releaseFrom} ({@link #stopAt}), is {@code volatile} too. {@code reading} is true on
   * entry (a batch was in flight) and leaves as {@code next}: it never passes through false while another
   * batch will be issued, so {@link #markTailReadyIfReaderStopped} on the scheduler, whenever it runs, sees
   * either a reader that will stop and mark the tail itself ({@code updateTail} after a false return) or a
   * reader that has stopped. A {@code stopAt} just after {@code terminatedByScheduler()} was read costs one
   * more batch, which the next call stops. The monitor stays for the reader's other steps, which do need it
   * ({@link #beginReading}'s check of revoke and stop, {@link #queueTail}), and so that the hand-off reads as
   * one protocol.
   */
  synchronized boolean batchLanded(int completedTo, boolean ok) {
    if (ok) {
      completedPages = completedTo;
    } else {
      ioFailed = true;
    }
    boolean next = !ioFailed && !terminatedByScheduler() && completedPages < hitPages;
    reading = next;
    return next;
  }

  /** The scheduler stops this operation (S5/S6): slots from {@code releaseFrom} on go back. Scheduler thread. */
  synchronized void stopAt(int releaseFrom) {
    this.releaseFrom = releaseFrom;
  }

  /** Queues the slots [releaseFrom, hit) on {@code releases}, once (not when revoked: S7 queued them all). */
  synchronized void queueTail(ReadyQueue<int[]> releases) {
    if (!revoked && releaseFrom >= 0 && releaseFrom < hitPages && tail == null) {
      tail = releases.add(java.util.Arrays.copyOfRange(hostPages, releaseFrom, hitPages));
    }
  }

  /**
   * Marks the queued tail ready when the S7 outcome has arrived here and no read is in flight ({@code
   * early}: the {@code releaseTailEarly} fault, B7tail, marks it regardless). Scheduler or I/O thread.
   */
  synchronized void markTailReadyIfReaderStopped(boolean early) {
    if (tail != null && (early || deposited && !reading)) {
      tail.markReady();
    }
  }

  /** Returns whether a tail of slots has been queued for release. */
  synchronized boolean tailQueued() {
    return tail != null;
  }
}
