package dev.hicachesync.tree;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * The order in which eviction meets a tree's nodes: every node but the root sorted by LRU stamp (or a
 * simulation's order, {@link RadixTree#orderVictimsBy}), and the subset that holds device pages in the same
 * order. A class of its own because keeping the two sets equal to the tree's residency is a rule of its own
 * (a node is re-sorted only while out of the sets; device pages change only here), which the tree's
 * match/insert code and the eviction walks ({@link Evictor}) both rely on.
 *
 * <p>Scheduler thread only, like the tree.
 */
final class VictimOrder {
  /** LRU order: oldest stamp first, then lowest id (an ancestor before a descendant created later). */
  static final Comparator<TreeNode> LRU =
      Comparator.<TreeNode>comparingLong(n -> n.lastAccess()).thenComparingLong(n -> n.id());

  private TreeSet<TreeNode> all = new TreeSet<>(LRU);
  /**
   * The nodes of {@link #all} that hold device pages, in the same order: what device eviction walks. Why a
   * second set: eviction skips every node without device pages, and in a long replay most of the tree is
   * host-only, so each eviction walked past thousands of them. Same victims in the same order:
   * eviction never gives a node device pages, so the walk over this set meets exactly the nodes the walk
   * over {@link #all} did not skip. Kept by {@link #setDevice}, {@link #touch} and {@link #remove}.
   */
  private TreeSet<TreeNode> device = new TreeSet<>(LRU);
  /** {@link RadixTree#evictNewestFirst}: eviction walks the order from its newest end. */
  private boolean newestFirst;

  /** Replaces the order by {@code order}; only while no node is in the sets. */
  void orderBy(Comparator<TreeNode> order) {
    all = new TreeSet<>(order);
    device = new TreeSet<>(order);
  }

  void evictNewestFirst(boolean newest) {
    this.newestFirst = newest;
  }

  /** Returns the first victim of the walk over the device nodes ({@code deviceOnly}) or over all. */
  TreeNode first(boolean deviceOnly) {
    TreeSet<TreeNode> order = deviceOnly ? device : all;
    return order.isEmpty() ? null : newestFirst ? order.last() : order.first();
  }

  /** Returns the victim after {@code n}; valid while {@code n} itself was just removed (a cursor walk). */
  TreeNode next(boolean deviceOnly, TreeNode n) {
    TreeSet<TreeNode> order = deviceOnly ? device : all;
    return newestFirst ? order.lower(n) : order.higher(n);
  }

  /** Adds a node whose stamp is already set (the upper half of a split). */
  void add(TreeNode n) {
    all.add(n);
    if (n.device() != null) {
      device.add(n);
    }
  }

  void remove(TreeNode n) {
    all.remove(n);
    device.remove(n);
  }

  /** Stamps {@code n} with {@code stamp}, re-sorting it (a new node joins the order here). */
  void touch(TreeNode n, long stamp) {
    all.remove(n); // before the stamp changes: the sets find a node by its order
    device.remove(n);
    n.touch(stamp);
    all.add(n);
    if (n.device() != null) {
      device.add(n);
    }
  }

  /**
   * Sets {@code n}'s device pages (null: none) and keeps the device set to the nodes of the order that have
   * some. A node not in the order yet (a new node before its first touch) joins at that touch.
   */
  void setDevice(TreeNode n, int[] pages) {
    n.setDevice(pages);
    if (pages == null) {
      device.remove(n);
    } else if (all.contains(n)) {
      device.add(n);
    }
  }

  List<TreeNode> all() {
    return new ArrayList<>(all);
  }

  List<TreeNode> device() {
    return new ArrayList<>(device);
  }
}
