package dev.hicachesync.tree;

/**
 * A canonical digest of a whole tree: nodes in id order, each with parent, key, residency (device and host
 * pages), locks, host protection, storage keys and LRU stamp — everything INV-3 says must agree.
 *
 * @param hash the digest; equal trees have equal digests
 * @param nodes number of nodes, the root included
 * @param devicePages pages resident on the device
 * @param hostPages pages with host slots
 */
public record TreeDigest(long hash, int nodes, int devicePages, int hostPages) {

  @Override
  public String toString() {
    return String.format(
        "TreeDigest[%016x, nodes=%d, device=%d, host=%d]", hash, nodes, devicePages, hostPages);
  }
}
