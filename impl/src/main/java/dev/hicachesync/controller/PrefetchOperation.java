package dev.hicachesync.controller;

import dev.hicachesync.storage.PageKey;
import dev.hicachesync.tree.TreeNode;

/**
 * One storage prefetch of one request on one rank ({@code PrefetchOperation} in {@code
 * cache_controller.py}): the key, its host slots, the synced decisions and this rank's read progress.
 *
 * <p>Decisions ({@link #hitPages()}, revoked, terminated, inserted) are made at sync points and are equal on
 * every rank; progress ({@link #completedPages()}, whether a read is in flight) is rank-local. Scheduler
 * thread only (the simulator runs the I/O thread's callbacks there too).
 */
public final class PrefetchOperation {
  final String rid;
  final TreeNode anchor;
  final int[] tokens;
  final PageKey[] keys;
  final int[] hostPages;
  final long issueTick;
  PrefetchState state = PrefetchState.ISSUED;
  /** Synced storage hit in pages (S7), -1 before. */
  int hitPages = -1;
  boolean revoked;
  /** The S7 outcome has reached this rank's scheduler (rank-local time). */
  boolean deposited;
  /** This rank's I/O thread has a batch in flight. */
  boolean reading;
  /** A read failed here: this rank's operation is terminated locally (S4 spreads it). */
  boolean ioFailed;
  int completedPages;
  /** First slot to hand back once reading stops, set by S5/S6 termination; -1 while running. */
  int releaseFrom = -1;
  /** S7's queue entries: the revoke, and the slots past the hit (all of them when revoked). */
  ReadyQueue.Entry<String> revokeEntry;
  ReadyQueue.Entry<int[]> s7Release;
  /** The slots [releaseFrom, hit) queued at termination. */
  ReadyQueue.Entry<int[]> tail;

  PrefetchOperation(String rid, TreeNode anchor, int[] tokens, PageKey[] keys, int[] hostPages, long tick) {
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
    return hostPages.length;
  }

  /** Returns the synced storage hit in pages, -1 before S7. */
  public int hitPages() {
    return hitPages;
  }

  /** Returns the pages this rank has read so far (rank-local). */
  public int completedPages() {
    return completedPages;
  }

  /** Returns whether the scheduler has stopped this operation (S4/S5/S6). */
  boolean terminatedByScheduler() {
    return releaseFrom >= 0;
  }
}
