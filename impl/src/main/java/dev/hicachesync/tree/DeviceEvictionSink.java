package dev.hicachesync.tree;

/** Where {@link RadixTree#evictDevice} sends what it evicts; implemented by the controller. */
public interface DeviceEvictionSink {

  /** Frees {@code pages} of the device pool. Scheduler thread only. */
  void freeDevice(int[] pages);

  /**
   * Frees the host pages of a host-only node that device eviction drops together with the device-only
   * node above it (see {@link RadixTree#evictDevice}). Scheduler thread only.
   */
  void freeHost(int[] pages);

  /**
   * Backs up a node that is not on the host yet, synchronously, before its device pages go ({@code
   * write_back}); returns false when it cannot (other policies, no host memory) and the node is then
   * dropped instead. Scheduler thread only.
   */
  boolean backupBeforeEviction(TreeNode node);
}
