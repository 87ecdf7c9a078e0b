package dev.hicachesync.tree;

import dev.hicachesync.storage.PageKey;

/**
 * Page arithmetic on token keys: how many whole pages a node's key shares with a prompt, and the storage
 * key chain of a new node's pages. Pure functions of arrays, kept apart from {@link RadixTree} so that the
 * tree's code reads as structure (descend, split, create) and this as the page rules it relies on.
 */
final class PageRuns {
  private PageRuns() {}

  /** Returns how many whole pages {@code key} shares with {@code tokens[pos, len)}, from their starts. */
  static int commonPages(int[] key, int[] tokens, int pos, int len, int pageSize) {
    int max = Math.min(key.length, len - pos) / pageSize;
    int p = 0;
    outer:
    while (p < max) {
      int base = p * pageSize;
      for (int i = 0; i < pageSize; i++) {
        if (key[base + i] != tokens[pos + base + i]) {
          break outer;
        }
      }
      p++;
    }
    return p;
  }

  /**
   * Returns the storage key of each page of {@code key}, chained from the last key of the parent's pages
   * ({@code parentHashes}, null or empty at the root): a page's key names its whole prefix.
   */
  static PageKey[] chain(PageKey[] parentHashes, int[] key, int pageSize) {
    PageKey prev = parentHashes == null || parentHashes.length == 0 ? null
        : parentHashes[parentHashes.length - 1];
    PageKey[] out = new PageKey[key.length / pageSize];
    for (int i = 0; i < out.length; i++) {
      prev = PageKey.chain(prev, key, i * pageSize, pageSize);
      out[i] = prev;
    }
    return out;
  }
}
