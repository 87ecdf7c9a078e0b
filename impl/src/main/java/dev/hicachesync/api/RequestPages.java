package dev.hicachesync.api;

import dev.hicachesync.controller.CacheController;
import dev.hicachesync.tree.InsertResult;
import dev.hicachesync.tree.MatchResult;
import dev.hicachesync.tree.TreeNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The page arithmetic behind {@link HiCacheRank}'s per-request calls: which node a request locks, how many
 * pages it gets, what is inserted when. Scheduler thread only.
 */
final class RequestPages {
  private final CacheController controller;
  /**
   * Whether write-through starts when a request finishes ({@code HiCacheSync.tla}'s point, for the
   * simulator's spec-shaped runs) instead of at insert ({@code HiRadixCache.insert}).
   */
  private final boolean writeThroughAtFinish;

  RequestPages(CacheController controller, boolean writeThroughAtFinish) {
    this.controller = controller;
    this.writeThroughAtFinish = writeThroughAtFinish;
  }

  /** {@link HiCacheRank#allocForExtend}. */
  CachedRequest allocForExtend(String rid, PrefixMatch m, int loadedTokens) {
    int ps = pageSize();
    MatchResult r = m.result();
    TreeNode prefix = loadedTokens > 0 ? r.lastNode() : r.lastDeviceNode();
    int prefixTokens = r.deviceTokens() + loadedTokens;
    controller.lock(prefix);
    int[] fresh = controller.allocateDevice(m.tokens().length / ps - prefixTokens / ps);
    if (fresh == null) {
      controller.unlock(prefix);
      return null;
    }
    return new CachedRequest(Objects.requireNonNull(rid, "rid"), m.tokens(),
        concat(devicePages(prefix), fresh), fresh, prefix, controller.takePrefetchedTokens(rid));
  }

  /** {@link HiCacheRank#cacheUnfinishedReq}. */
  void cacheUnfinishedReq(CachedRequest req) {
    InsertResult ins = insert(wholePages(req.tokensHeld(), req.pagesHeld().length * pageSize()), req.pagesHeld());
    TreeNode last = ins.lastNode() == null ? controller.view().tree().root() : ins.lastNode();
    controller.lock(last);
    controller.unlock(req.locked());
    req.relock(last);
  }

  /** {@link HiCacheRank#allocForDecode}. */
  int[] allocForDecode(CachedRequest req, int[] allTokens) {
    int[] have = devicePages(req.locked());
    int extra = allTokens.length / pageSize() - have.length;
    if (extra <= 0) {
      return new int[0];
    }
    int[] fresh = controller.allocateDevice(extra);
    if (fresh == null) {
      return null;
    }
    req.grewForDecode(allTokens, concat(have, fresh), fresh);
    return fresh;
  }

  /** {@link HiCacheRank#cacheFinishedReq}. */
  void cacheFinishedReq(CachedRequest req) {
    if (req.finished()) {
      throw new IllegalStateException("request " + req.rid() + " is already finished");
    }
    TreeNode last = req.locked();
    if (req.decodePending()) {
      int ps = pageSize();
      InsertResult ins = insert(wholePages(req.tokensHeld(), req.tokensHeld().length / ps * ps), req.pagesHeld());
      req.decodeInserted();
      if (ins.lastNode() != null) {
        last = ins.lastNode();
      }
    }
    controller.unlock(req.locked());
    if (writeThroughAtFinish) { // root first, as insert applies the policy along the path
      List<TreeNode> path = new ArrayList<>();
      for (TreeNode t = last; t != null && t.parent() != null; t = t.parent()) {
        path.add(0, t);
      }
      for (TreeNode t : path) {
        controller.writeThrough(t);
      }
    }
    req.finish();
  }

  private int pageSize() {
    return controller.view().tree().pageSize();
  }

  /**
   * Returns {@code tokens} cut (or padded) to {@code length}: the array itself when only a partial last page
   * lies beyond it, which the tree ignores anyway. Why not always a copy: a replay's prompts are thousands
   * of tokens, copied once per rank per admission, and the data path finds a prompt's page seeds
   * by the prompt array's identity.
   */
  private int[] wholePages(int[] tokens, int length) {
    int ps = pageSize();
    return length == tokens.length - tokens.length % ps ? tokens : Arrays.copyOf(tokens, length);
  }

  /** Inserts with the write policy applied now, or (write-through at finish) without it. */
  private InsertResult insert(int[] tokens, int[] pages) {
    return writeThroughAtFinish ? controller.insertWithoutBackup(tokens, pages) : controller.insert(tokens, pages);
  }

  /** Returns the device pages of the path from the root to {@code node}, which must be on the device. */
  static int[] devicePages(TreeNode node) {
    List<int[]> parts = new ArrayList<>();
    int n = 0;
    for (TreeNode t = node; t != null && t.parent() != null; t = t.parent()) {
      int[] p = t.devicePages();
      parts.add(p);
      n += p.length;
    }
    int[] out = new int[n];
    int at = n;
    for (int[] p : parts) {
      at -= p.length;
      System.arraycopy(p, 0, out, at, p.length);
    }
    return out;
  }

  private static int[] concat(int[] a, int[] b) {
    int[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }
}
