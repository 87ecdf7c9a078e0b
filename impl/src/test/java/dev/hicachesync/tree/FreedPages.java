package dev.hicachesync.tree;

import java.util.ArrayList;
import java.util.List;

/** A {@link DeviceEvictionSink} for tree tests: records the pages eviction frees and backs nothing up. */
final class FreedPages implements DeviceEvictionSink {
  final List<Integer> pages = new ArrayList<>();
  final List<Integer> hostPages = new ArrayList<>();

  @Override
  public void freeDevice(int[] p) {
    for (int x : p) {
      pages.add(x);
    }
  }

  @Override
  public void freeHost(int[] p) {
    for (int x : p) {
      hostPages.add(x);
    }
  }

  @Override
  public boolean backupBeforeEviction(TreeNode node) {
    return false;
  }
}
