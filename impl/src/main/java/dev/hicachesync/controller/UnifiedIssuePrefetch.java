package dev.hicachesync.controller;

import dev.hicachesync.storage.PageKey;
import dev.hicachesync.tree.MatchResult;
import dev.hicachesync.tree.TreeNode;
import java.util.Arrays;

/**
 * Prefetch issue in {@code unified} ({@code unified_radix_cache.py::prefetch_from_storage} @db570fe6;
 * HiCacheUnified.tla {@code Issue}): the operation is queued for the S7 thread with <b>no host memory</b>;
 * the scheduler allocates the synced hit's slots when it drains the hit queue ({@link UnifiedEventCheck}).
 * The anchor is host-protected until the operation leaves {@code ongoing_prefetch}, so the insertion point
 * survives eviction.
 *
 * <p>Decided from the request and the synced tree only (INV-5). Scheduler thread only.
 */
final class UnifiedIssuePrefetch {
  private final CacheController c;

  UnifiedIssuePrefetch(CacheController c) {
    this.c = c;
  }

  boolean run(String rid, MatchResult m, int[] tokens) {
    if (c.storage == null || !c.unified.storageEnabled || c.ongoingPrefetch.containsKey(rid)) {
      return false;
    }
    int ps = c.config.pageSize();
    int start = m.treeTokens();
    int len = IssuePrefetch.prefetchableTokens(c, start, tokens.length);
    if (len == 0) {
      return false;
    }
    TreeNode anchor = m.lastNode();
    c.tree.protectHost(anchor);
    int pages = len / ps;
    int[] key = Arrays.copyOfRange(tokens, start, start + len);
    PageKey[] keys = IssuePrefetch.storageKeys(c, anchor, key, pages);
    PrefetchOperation op = new PrefetchOperation(rid, anchor, key, keys, new int[0], c.env.clock().ticks());
    c.ongoingPrefetch.put(rid, op);
    c.prefetchQueue.add(op);
    c.stats.prefetchesIssued++;
    c.mixPrefetchHash(1, rid.hashCode(), pages);
    return true;
  }
}
