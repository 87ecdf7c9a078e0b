package dev.hicachesync.controller;

import dev.hicachesync.tier.PageContent;
import dev.hicachesync.tree.TreeNode;

/** The content seeds ({@link PageContent#seed}) of a node's pages or of a prefetch key's pages. */
final class PageSeeds {
  private PageSeeds() {}

  /**
   * Returns one seed per page of {@code node}'s key, a fresh array: computed once per node and page range
   * (the node caches them; a split divides the cache), copied out on every call.
   */
  static long[] of(TreeNode node, int pageSize) {
    long[] cached = node.cachedPageSeeds(n -> compute(n, pageSize));
    if (cached.length != node.tokens() / pageSize) {
      return compute(node, pageSize); // only if the page size differed between calls, which it never does
    }
    return cached.clone();
  }

  private static long[] compute(TreeNode node, int pageSize) {
    int[] page = new int[pageSize];
    long[] s = new long[node.tokens() / pageSize];
    for (int p = 0; p < s.length; p++) {
      for (int i = 0; i < pageSize; i++) {
        page[i] = node.token(p * pageSize + i);
      }
      s[p] = SharedPageSeeds.seed(page, 0, pageSize); // the replicas' nodes hold the same pages
    }
    return s;
  }

  /**
   * Returns one seed per page of the first {@code pages} pages of {@code tokens} (a prefetch's key: the
   * replicas seed the same pages, {@link SharedPageSeeds}).
   */
  static long[] of(int[] tokens, int pages, int pageSize) {
    long[] s = new long[pages];
    for (int p = 0; p < pages; p++) {
      s[p] = SharedPageSeeds.seed(tokens, p * pageSize, pageSize);
    }
    return s;
  }
}
