package dev.hicachesync.api;

import dev.hicachesync.tree.TreeNode;

/**
 * The cache state one running request holds on one rank (SGLang's {@code req.last_node} and {@code
 * req.prefix_indices}): the tree node it keeps locked and the device pages of its tokens so far. Made by
 * {@link HiCacheRank#allocForExtend}, passed back to {@link HiCacheRank#cacheUnfinishedReq}, {@link
 * HiCacheRank#allocForDecode} and {@link HiCacheRank#cacheFinishedReq}. Scheduler thread only.
 */
public final class CachedRequest {
  final String rid;
  int[] tokens;
  int[] pages;
  int[] fresh;
  TreeNode locked;
  /** Pages {@link HiCacheRank#allocForDecode} allocated that {@link HiCacheRank#cacheFinishedReq} inserts. */
  boolean decodePending;
  boolean finished;
  /** Tokens of the prompt a storage prefetch brought in (taken at admission). */
  int prefetchedTokens;

  CachedRequest(String rid, int[] tokens, int[] pages, int[] fresh, TreeNode locked) {
    this.rid = rid;
    this.tokens = tokens;
    this.pages = pages;
    this.fresh = fresh;
    this.locked = locked;
  }

  /** Returns the request id. */
  public String rid() {
    return rid;
  }

  /** Returns a copy of the device pages of the request's whole pages so far (prefix, then computed). */
  public int[] devicePages() {
    return pages.clone();
  }

  /**
   * Returns a copy of the pages the last allocation handed out, for the engine's forward pass to write the KV
   * of the tokens it computes (prefill: the prompt after the prefix; decode: the output).
   */
  public int[] freshPages() {
    return fresh.clone();
  }

  /** Returns the tokens of this request's prefetch that were inserted into the tree before admission (0 if none). */
  public int prefetchedTokens() {
    return prefetchedTokens;
  }

  @Override
  public String toString() {
    return "CachedRequest[" + rid + ", " + tokens.length + " tokens, " + pages.length + " pages]";
  }
}
