package dev.hicachesync.controller;

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
  private final RankState s;

  IssuePrefetch(RankState s) {
    this.s = s;
  }

  boolean run(String rid, MatchResult m, int[] tokens) {
    if (!s.storage().attached() || s.prefetches().isOngoing(rid)) {
      return false;
    }
    int ps = s.config().pageSize();
    int start = m.treeTokens();
    int len = prefetchableTokens(s, start, tokens.length);
    if (len == 0) {
      return false;
    }
    TreeNode anchor = m.lastNode();
    s.tree().protectHost(anchor);
    int pages = len / ps;
    int[] slots = s.pools().allocateHost(pages);
    if (slots == null) {
      s.tree().releaseHost(anchor);
      return false;
    }
    int[] key = Arrays.copyOfRange(tokens, start, start + len);
    PrefetchKeys keys = s.storage().keys(anchor, key, pages);
    PrefetchOperation op = new PrefetchOperation(rid, anchor, key, keys, slots, s.env().clock().ticks());
    s.prefetches().issueForNextPass(op);
    s.stats().prefetchIssued();
    s.hashes().mixPrefetch(1, rid.hashCode(), pages);
    return true;
  }

  /**
   * How many tokens past the {@code start} the tree matched a prefetch would read: the whole pages of the
   * rest of a {@code length}-token prompt, or 0 when that is below the prefetch threshold (SGLang's
   * {@code prefetch_threshold}). Shared by every version's prefetch issue.
   */
  static int prefetchableTokens(RankState s, int start, int length) {
    int ps = s.config().pageSize();
    int len = (length - start) / ps * ps;
    return len <= 0 || len < s.config().prefetchThresholdTokens() ? 0 : len;
  }
}
