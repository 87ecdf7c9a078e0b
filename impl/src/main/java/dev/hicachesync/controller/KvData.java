package dev.hicachesync.controller;

import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.storage.PageKey;
import dev.hicachesync.storage.StorageBackend;
import dev.hicachesync.tier.PageContent;

/**
 * Where the controller's copies move KV bytes: device↔host copies with the page indices it allocated,
 * storage reads and writes through host slots, and the integrity checks on arrival. {@link #NONE} moves
 * nothing (page counts only).
 *
 * <p>Why a seam apart from {@link ControllerEnv}: the environment alone decides <em>when</em> a transfer
 * completes (its event is passed in as {@code timing}); the data path only makes the bytes arrive by then,
 * so turning it on never changes a decision. Content is identified by a seed per page ({@code
 * tier.PageContent}); a page that does not hold its seed's bytes when checked was corrupted by a transfer
 * racing a reuse, reported as {@code HostSlotSafety}. Scheduler thread (and the I/O callbacks the
 * environment runs on it).
 */
public interface KvData {
  /** Moves no bytes; storage objects are 8-byte placeholders. */
  KvData NONE = new NoKvData();

  /** Returns whether this data path moves bytes (when not, callers may skip computing seeds). */
  boolean moves();

  /**
   * Returns the content seeds of pages {@code firstPage .. firstPage + pages} of {@code tokens}, a fresh
   * array ({@code tier.PageContent#seed} of each page). A data path may answer from seeds it computed for
   * the same array already (the prompt prefill just wrote); the values are the same either way.
   */
  default long[] pageSeeds(int[] tokens, int firstPage, int pages, int pageSize) {
    long[] s = new long[pages];
    for (int p = 0; p < pages; p++) {
      s[p] = PageContent.seed(tokens, (firstPage + p) * pageSize, pageSize);
    }
    return s;
  }

  /**
   * Starts copying {@code devicePages[i]} to {@code hostPages[i]}; the returned event is done when
   * {@code timing} is, and then the host slots hold the pages of {@code seeds[i]} (checked).
   */
  TransferEvent toHost(TransferEvent timing, int[] devicePages, int[] hostPages, long[] seeds);

  /** Starts copying {@code hostPages[i]} to {@code devicePages[i]}; as {@link #toHost}, checked on the device. */
  TransferEvent fromHost(TransferEvent timing, int[] hostPages, int[] devicePages, long[] seeds);

  /** Checks that host slot {@code hostPage} holds page {@code seed} and stores it as {@code key}. */
  void store(StorageBackend storage, PageKey key, int hostPage, long seed);

  /** Reads {@code key} into host slot {@code hostPage} and checks it; returns false if the object is absent. */
  boolean load(StorageBackend storage, PageKey key, int hostPage, long seed);

  /** Checks that host slots {@code hostPages[from, to)} hold the pages of {@code seeds[from, to)}. */
  void checkHost(int[] hostPages, int from, int to, long[] seeds, String what);
}
