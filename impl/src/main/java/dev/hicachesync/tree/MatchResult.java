package dev.hicachesync.tree;

/**
 * What {@link RadixTree#matchPrefix} found: the leading run on the device, the run after it that lives on
 * the host only, and (filled in by the controller) how much further the storage has it.
 *
 * @param deviceTokens tokens from the start resident on the device
 * @param hostTokens tokens after those that live on the host only (to load back)
 * @param storageTokens tokens after those that the storage has (0 unless the controller queried it)
 * @param lastDeviceNode deepest matched node on the device (the root when none)
 * @param lastNode deepest matched node (the prefetch anchor, {@code last_host_node})
 */
public record MatchResult(
    int deviceTokens, int hostTokens, int storageTokens, TreeNode lastDeviceNode, TreeNode lastNode) {

  /** Returns this result with {@code tokens} of storage hits after the host hits. */
  public MatchResult withStorage(int tokens) {
    return new MatchResult(deviceTokens, hostTokens, tokens, lastDeviceNode, lastNode);
  }

  /** Returns device + host tokens: the prefix the tree holds. */
  public int treeTokens() {
    return deviceTokens + hostTokens;
  }
}
