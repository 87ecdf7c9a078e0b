package dev.hicachesync.tree;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The structure of a {@link RadixTree}: its live nodes by id, and creating, splitting and removing them. Ids
 * come from a counter, so the nodes iterate in id order; every structural change is mixed into the tree's
 * mutation hash and kept in step with the victims of eviction.
 */
final class NodeIndex {
  private final RadixTree tree;
  private final VictimOrder victims;
  private final int pageSize;
  private final boolean withHashes;
  /**
   * Live nodes by id, iterated in id order: ids come from a counter and each node is put here as soon as it
   * gets its id, so insertion order is id order ({@link #inIdOrder} needs no sort; the digest walks it).
   */
  private final Map<Long, TreeNode> byId = new LinkedHashMap<>();
  private long nextId = 1;
  /** Nodes (root excluded) that hold host pages: when 0, host eviction has nothing to find. */
  private int hostNodes;

  NodeIndex(RadixTree tree, VictimOrder victims, int pageSize, boolean withHashes) {
    this.tree = tree;
    this.victims = victims;
    this.pageSize = pageSize;
    this.withHashes = withHashes;
  }

  /** Indexes {@code n} (the root, at construction). */
  void add(TreeNode n) {
    byId.put(n.id(), n);
  }

  /** Returns the live node with {@code id}, or null once it is gone. */
  TreeNode get(long id) {
    return byId.get(id);
  }

  /** Returns the number of nodes, the root included. */
  int size() {
    return byId.size();
  }

  /** Returns the live nodes in id order (a view). */
  Collection<TreeNode> inIdOrder() {
    return Collections.unmodifiableCollection(byId.values());
  }

  /** Returns how many nodes (root excluded) hold host pages: when 0, host eviction has nothing to find. */
  int hostNodes() {
    return hostNodes;
  }

  /** Notes that a node without host pages got some. */
  void hostAdded() {
    hostNodes++;
  }

  /** Creates a child of {@code parent} with {@code key} (fresh id); no pages yet. */
  TreeNode create(TreeNode parent, int[] key) {
    TreeNode n = new TreeNode(nextId++);
    n.setPlace(parent, key, withHashes ? PageRuns.chain(parent.hashes(), key, pageSize) : null);
    parent.children().put(new ChildKey(key, 0, pageSize), n);
    byId.put(n.id(), n);
    tree.mixCreated(n, parent);
    return n;
  }

  /**
   * The child of {@code node} that shares the page at {@code pos} of {@code tokens}, split so that it holds
   * only the pages they share and touched at {@code stamp}; null when no child shares that page.
   */
  TreeNode descend(TreeNode node, int[] tokens, int pos, int len, long stamp) {
    TreeNode child = node.children().get(new ChildKey(tokens, pos, pageSize));
    if (child == null) {
      return null;
    }
    int common = PageRuns.commonPages(child.key(), tokens, pos, len, pageSize);
    if (common * pageSize < child.key().length) {
      child = split(child, common);
    }
    victims.touch(child, stamp);
    return child;
  }

  /** Splits {@code child} after {@code pages} pages; returns the new upper node (fresh id). */
  private TreeNode split(TreeNode child, int pages) {
    TreeNode upper = new TreeNode(nextId++);
    upper.setParent(child.parent());
    if (child.host() != null) {
      hostNodes++; // both halves hold host pages
    }
    child.movePagesTo(upper, pages, pageSize); // a device node stays a victim, its upper half joins below
    child.parent().children().put(new ChildKey(upper.key(), 0, pageSize), upper);
    child.setParent(upper);
    upper.children().put(new ChildKey(child.key(), 0, pageSize), child);
    byId.put(upper.id(), upper);
    victims.add(upper);
    tree.mix(14, child.id(), pages);
    return upper;
  }

  /** Deletes the leaf {@code n}: off its parent, the id index and the victims. */
  void delete(TreeNode n) {
    n.parent().children().remove(new ChildKey(n.key(), 0, pageSize));
    forget(n);
  }

  /**
   * Drops {@code n} from the id index and the victims, leaving its parent's children to the caller (a
   * dropped subtree clears them at once, {@link Evictor}).
   */
  void forget(TreeNode n) {
    if (n.host() != null) {
      hostNodes--;
    }
    byId.remove(n.id());
    victims.remove(n);
  }
}
