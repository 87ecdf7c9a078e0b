package dev.hicachesync.tree;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * The eviction walks of one {@link RadixTree}: which nodes leave the device or the host, in which order,
 * and what happens to a node that can be neither demoted nor deleted alone. A class of its own because
 * these rules (victim choice, passes, the host-only subtree below a device-only node) are the part of the
 * tree that protocol bugs touch, and they read best apart from match/insert/split. Every change to the
 * tree goes through the tree's own mutators and its {@link NodeIndex}, so the mutation hash sees the same steps in the same order.
 *
 * <p>Scheduler thread only, like the tree.
 */
final class Evictor {
  private final RadixTree tree;
  private final VictimOrder victims;
  private final NodeIndex nodes;

  Evictor(RadixTree tree, VictimOrder victims, NodeIndex nodes) {
    this.tree = tree;
    this.victims = victims;
    this.nodes = nodes;
  }

  /** See {@link RadixTree#evictDevice}. */
  int evictDevice(int pages, DeviceEvictionSink sink) {
    int freed = 0;
    boolean progress = true;
    // Why passes: evicting a leaf can make its parent a leaf, and the parent may sort earlier (same stamp,
    // lower id); another pass picks it up, in the same deterministic order on every rank.
    while (freed < pages && progress) {
      progress = false;
      // Cursor walk: next() stays valid when the current node is deleted.
      for (TreeNode n = victims.first(true), next; n != null && freed < pages; n = next) {
        next = victims.next(true, n);
        if (n.device() == null || n.lockRef() > 0 || hasDeviceChild(n)) {
          continue;
        }
        int[] dev = n.device();
        if (n.host() != null || sink.backupBeforeEviction(n)) {
          victims.setDevice(n, null);
        } else if (n.hostRef() == 0 && n.children().isEmpty()) {
          nodes.delete(n);
        } else if (n.hostRef() == 0 && dropHostOnlySubtree(n, sink)) {
          nodes.delete(n);
          next = victims.next(true, n); // as over all (a dropped descendant is host-only, never this cursor)
        } else {
          continue;
        }
        tree.mix(11, n.id());
        sink.freeDevice(dev);
        freed += dev.length;
        progress = true;
      }
    }
    return freed;
  }

  /** See {@link RadixTree#evictHost}. */
  int evictHost(int pages, Consumer<int[]> freeHost) {
    if (nodes.hostNodes() == 0) {
      // Nothing holds host pages (no host pool, or none written yet): the scan below would visit every
      // node to find nothing, once per insert under write_through (a run that never finished).
      return 0;
    }
    int freed = 0;
    boolean progress = true;
    while (freed < pages && progress) {
      progress = false;
      for (TreeNode n = victims.first(false), next; n != null && freed < pages; n = next) {
        next = victims.next(false, n);
        if (n.device() != null || n.host() == null || n.hostRef() > 0 || n.lockRef() > 0 || !n.children().isEmpty()) {
          continue;
        }
        int[] host = n.host();
        nodes.delete(n);
        tree.mix(12, n.id());
        freeHost.accept(host);
        freed += host.length;
        progress = true;
      }
    }
    return freed;
  }

  /**
   * Deletes the subtree below the device-only, unlocked node {@code n} when it is host-only and unprotected,
   * handing its host pages to {@code sink} in node-id order; returns false (and changes nothing) when a node
   * below is on the device or host-protected (a storage backup or a prefetch anchor still uses it).
   *
   * <p>Why: a device-only node over host-only children is a leaf of the device tree that can be neither
   * demoted (no host copy) nor deleted alone (the children need their parent). {@code write_backup}'s
   * invariant (a parent is backed up before its child) keeps write-through from building one, but a
   * prefetch anchored at a device-only node still inserts host-only pages below it (S5). Left alone, it pins
   * its own device pages and every ancestor's forever ({@code RequestsProgress}). SGLang's {@code
   * _evict_regular} deletes such a node as a leaf; dropping the unreachable host pages with it keeps
   * {@code HostSlotSafety}'s no-leak rule. Locks need no check: a lock below would lock {@code n} too.
   */
  private boolean dropHostOnlySubtree(TreeNode n, DeviceEvictionSink sink) {
    List<TreeNode> below = new ArrayList<>();
    List<TreeNode> todo = new ArrayList<>(n.children().values());
    while (!todo.isEmpty()) {
      TreeNode c = todo.remove(todo.size() - 1);
      if (c.device() != null || c.hostRef() > 0 || c.host() == null) {
        return false;
      }
      below.add(c);
      todo.addAll(c.children().values());
    }
    below.sort(Comparator.comparingLong(c -> c.id()));
    for (TreeNode c : below) {
      nodes.forget(c);
      tree.mix(15, c.id());
    }
    n.children().clear();
    for (TreeNode c : below) {
      sink.freeHost(c.host());
    }
    return true;
  }

  private static boolean hasDeviceChild(TreeNode n) {
    for (TreeNode c : n.children().values()) {
      if (c.device() != null) {
        return true;
      }
    }
    return false;
  }
}
