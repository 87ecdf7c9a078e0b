package dev.hicachesync.controller;

import dev.hicachesync.tree.TreeNode;

/**
 * Where one rank's copies move KV bytes ({@link KvData#NONE}, page counts only, unless {@link #attach} was
 * called before the first step), and the content seed of each page the bytes are checked against.
 */
final class PageData {
  private final int pageSize;
  private KvData data = KvData.NONE;

  PageData(int pageSize) {
    this.pageSize = pageSize;
  }

  /** Makes copies move real KV bytes through {@code data} (before the first step). */
  void attach(KvData data) {
    this.data = data;
  }

  /** The data path copies, stores and loads go through. */
  KvData path() {
    return data;
  }

  /** Whether bytes move (else every seed is null and nothing is checked). */
  boolean moves() {
    return data.moves();
  }

  /** Returns the content seed of each page of {@code node}, or null when the data path moves no bytes. */
  long[] seeds(TreeNode node) {
    return data.moves() ? PageSeeds.of(node, pageSize) : null;
  }

  /** Returns the content seed of each page of {@code op}'s key, or null when the data path moves no bytes. */
  long[] seeds(PrefetchOperation op) {
    return data.moves() ? PageSeeds.of(op.tokens(), op.hostPages().length, pageSize) : null;
  }
}
