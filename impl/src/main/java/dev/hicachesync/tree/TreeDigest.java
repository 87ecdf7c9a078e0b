package dev.hicachesync.tree;

import dev.hicachesync.storage.PageKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

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

  /** Returns the digest of {@code nodesById}, a whole tree's nodes in id order (O(nodes)). */
  static TreeDigest of(Collection<TreeNode> nodesById) {
    long h = 17;
    int dev = 0;
    int host = 0;
    for (TreeNode n : nodesById) {
      h = Mix64.mix(h, n.id());
      h = Mix64.mix(h, n.parent() == null ? -1 : n.parent().id());
      h = Mix64.mix(h, n.keyMix()); // the key's fingerprint, cached per node: equal keys, equal mixes
      h = Mix64.mix(h, n.device());
      h = Mix64.mix(h, n.host());
      h = Mix64.mix(h, n.lockRef());
      h = Mix64.mix(h, n.hostRef());
      h = Mix64.mix(h, n.lastAccess());
      if (n.hashes() != null) {
        for (PageKey k : n.hashes()) {
          h = Mix64.mix(h, k.hashCode());
        }
      }
      dev += n.device() == null ? 0 : n.device().length;
      host += n.host() == null ? 0 : n.host().length;
    }
    return new TreeDigest(h, nodesById.size(), dev, host);
  }

  /** Returns one canonical line per node of {@code nodesById}: the digest's fields, readable. */
  static List<String> describe(List<TreeNode> nodesById) {
    List<String> lines = new ArrayList<>();
    for (TreeNode n : nodesById) {
      lines.add(String.format(
          "node %d parent=%s tokens=%d key#=%08x device=%s host=%s lock=%d hostRef=%d lru=%d",
          n.id(), n.parent() == null ? "-" : Long.toString(n.parent().id()), n.key().length,
          Arrays.hashCode(n.key()), n.device() == null ? "-" : Arrays.toString(n.device()),
          n.host() == null ? "-" : Arrays.toString(n.host()), n.lockRef(), n.hostRef(), n.lastAccess()));
    }
    return lines;
  }
}
