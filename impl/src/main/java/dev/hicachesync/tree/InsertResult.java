package dev.hicachesync.tree;

import java.util.List;

/**
 * What {@link RadixTree#insert} did.
 *
 * @param path the nodes the key now runs through, root excluded, top-down (for hit counts and write-through)
 * @param duplicatePages device pages the caller passed for a prefix that was already on the device: the
 *     caller frees them
 * @param newNode the leaf created for the part that was missing, or null when the key was all present
 */
public record InsertResult(List<TreeNode> path, int[] duplicatePages, TreeNode newNode) {

  /** Returns the deepest node of the key (the root's stand-in: null when the key was empty). */
  public TreeNode lastNode() {
    return path.isEmpty() ? null : path.get(path.size() - 1);
  }
}
