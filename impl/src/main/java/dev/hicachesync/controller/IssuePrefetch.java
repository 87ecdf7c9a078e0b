package dev.hicachesync.controller;

import dev.hicachesync.storage.PageKey;
import dev.hicachesync.tree.MatchResult;
import dev.hicachesync.tree.TreeNode;
import java.util.Arrays;

/**
 * Prefetch issue ({@code prefetch_from_storage}): when a request arrives and the storage may hold more of
 * its prefix than the tree, host slots for the whole missing key are allocated, the anchor (the deepest
 * matched node) is host-protected, and the operation is queued for the prefetch thread (ISSUED).
 *
 * <p>Decided from the request and the synced tree only, so every rank issues the same prefetches (INV-5);
 * allocation failure is the same everywhere too (INV-6). Scheduler thread only.
 */
final class IssuePrefetch {
  private final CacheController c;

  IssuePrefetch(CacheController c) {
    this.c = c;
  }

  boolean run(String rid, MatchResult m, int[] tokens) {
    if (c.storage == null || c.ongoingPrefetch.containsKey(rid)) {
      return false;
    }
    int ps = c.config.pageSize();
    int start = m.treeTokens();
    int len = prefetchableTokens(c, start, tokens.length);
    if (len == 0) {
      return false;
    }
    TreeNode anchor = m.lastNode();
    c.tree.protectHost(anchor);
    int pages = len / ps;
    int[] slots = c.allocateHost(pages);
    if (slots == null) {
      c.tree.releaseHost(anchor);
      return false;
    }
    int[] key = Arrays.copyOfRange(tokens, start, start + len);
    PageKey[] keys = storageKeys(c, anchor, key, pages);
    PrefetchOperation op = new PrefetchOperation(rid, anchor, key, keys, slots, c.env.clock().ticks());
    c.ongoingPrefetch.put(rid, op);
    c.prefetchQueue.add(op);
    c.s7Queued++;
    c.stats.prefetchesIssued++;
    c.mixPrefetchHash(1, rid.hashCode(), pages);
    return true;
  }

  /**
   * How many tokens past the {@code start} the tree matched a prefetch would read: the whole pages of the
   * rest of a {@code length}-token prompt, or 0 when that is below the prefetch threshold (SGLang's
   * {@code prefetch_threshold}). Shared by every version's prefetch issue.
   */
  static int prefetchableTokens(CacheController c, int start, int length) {
    int ps = c.config.pageSize();
    int len = (length - start) / ps * ps;
    return len <= 0 || len < c.config.prefetchThresholdTokens() ? 0 : len;
  }

  /**
   * The L3 keys of the {@code pages} pages of {@code key} below {@code anchor}: each page's key chains the one
   * before it (the anchor's last page first), as SGLang's hash chain of a prefix, with this rank's suffix.
   * Shared by every version's prefetch issue.
   */
  static PageKey[] storageKeys(CacheController c, TreeNode anchor, int[] key, int pages) {
    int ps = c.config.pageSize();
    PageKey[] prev = anchor.pageKeys();
    PageKey last = prev == null || prev.length == 0 ? null : prev[prev.length - 1];
    PageKey[] keys = new PageKey[pages];
    for (int i = 0; i < pages; i++) {
      last = PageKey.chain(last, key, i * ps, ps); // no copy of the page's tokens
      keys[i] = last.withSuffix(c.storageSuffix);
    }
    return keys;
  }
}
