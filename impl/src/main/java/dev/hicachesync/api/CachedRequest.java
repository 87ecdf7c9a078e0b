package dev.hicachesync.api;

import dev.hicachesync.tree.TreeNode;

/**
 * The cache state one running request holds on one rank (SGLang's {@code req.last_node} and {@code
 * req.prefix_indices}): the tree node it keeps locked and the device pages of its tokens so far. Made by
 * {@link HiCacheRank#allocForExtend}, passed back to {@link HiCacheRank#cacheUnfinishedReq}, {@link
 * HiCacheRank#allocForDecode} and {@link HiCacheRank#cacheFinishedReq}. Scheduler thread only.
 */
public final class CachedRequest {
  private final String rid;
  private int[] tokens;
  private int[] pages;
  private int[] fresh;
  private TreeNode locked;
  /** Pages {@link HiCacheRank#allocForDecode} allocated that {@link HiCacheRank#cacheFinishedReq} inserts. */
  private boolean decodePending;
  private boolean finished;
  /** Tokens of the prompt a storage prefetch brought in (taken at admission). */
  private final int prefetchedTokens;

  CachedRequest(String rid, int[] tokens, int[] pages, int[] fresh, TreeNode locked, int prefetchedTokens) {
    this.rid = rid;
    this.tokens = tokens;
    this.pages = pages;
    this.fresh = fresh;
    this.locked = locked;
    this.prefetchedTokens = prefetchedTokens;
  }

  // ---------------------------------------------------------------- the request's life ({@link RequestPages})

  /** The request's tokens so far (not a copy: the caller only reads). */
  int[] tokensHeld() {
    return tokens;
  }

  /** The device pages of the request's whole pages so far (not a copy: the caller only reads). */
  int[] pagesHeld() {
    return pages;
  }

  /** The tree node the request keeps locked. */
  TreeNode locked() {
    return locked;
  }

  /** The request now keeps {@code node} locked instead (the caller moved the lock). */
  void relock(TreeNode node) {
    this.locked = node;
  }

  /** Decode grew the request to {@code allTokens} over {@code allPages}, {@code freshPages} of them new. */
  void grewForDecode(int[] allTokens, int[] allPages, int[] freshPages) {
    this.tokens = allTokens;
    this.pages = allPages;
    this.fresh = freshPages;
    this.decodePending = true;
  }

  /** Whether decode pages wait to be inserted at finish. */
  boolean decodePending() {
    return decodePending;
  }

  /** The decode pages were inserted. */
  void decodeInserted() {
    this.decodePending = false;
  }

  /** Whether {@link HiCacheRank#cacheFinishedReq} has run. */
  boolean finished() {
    return finished;
  }

  /** {@link HiCacheRank#cacheFinishedReq} has run. */
  void finish() {
    this.finished = true;
  }

  // ---------------------------------------------------------------- the engine's view

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
