package dev.hicachesync.controller;

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
  private final RankState s;

  UnifiedIssuePrefetch(RankState s) {
    this.s = s;
  }

  boolean run(String rid, MatchResult m, int[] tokens) {
    if (!s.storage().active() || s.prefetches().isOngoing(rid)) {
      return false;
    }
    int ps = s.config().pageSize();
    int start = m.treeTokens();
    int len = IssuePrefetch.prefetchableTokens(s, start, tokens.length);
    if (len == 0) {
      return false;
    }
    TreeNode anchor = m.lastNode();
    s.tree().protectHost(anchor);
    int pages = len / ps;
    int[] key = Arrays.copyOfRange(tokens, start, start + len);
    PrefetchKeys keys = s.storage().keys(anchor, key, pages);
    PrefetchOperation op = new PrefetchOperation(rid, anchor, key, keys, new int[0], s.env().clock().ticks());
    s.prefetches().issue(op);
    s.stats().prefetchIssued();
    s.hashes().mixPrefetch(1, rid.hashCode(), pages);
    return true;
  }
}
