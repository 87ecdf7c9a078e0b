package dev.hicachesync.tree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * The page-granular radix tree of one rank ({@code hiradix_cache.py}): match, insert, split, locks, host
 * protection and LRU eviction of device and host pages.
 *
 * <p>Scheduler thread only. Determinism is the point of the design: node ids come from a counter, the LRU
 * clock is a logical counter bumped once per access, ties in LRU order break by node id, and children are
 * never iterated in hash order where the order matters. Two ranks that apply the same calls in the same
 * order therefore hold trees with equal {@link #digest()}s and equal {@link #mutationHash()}es; the running
 * mutation hash is what the simulator compares at every lockstep point (O(1) per mutation), the canonical
 * digest is what it prints and cross-checks now and then.
 */
public final class RadixTree {
  private final int pageSize;
  private final boolean withHashes;
  private final TreeNode root;
  /** Eviction's view of the nodes: LRU order, and its nodes with device pages. */
  private final VictimOrder victims = new VictimOrder();
  /** The live nodes by id, and creating, splitting and removing them. */
  private final NodeIndex nodes;
  private final Evictor evictor;
  private long clock;
  private long mutations;

  /**
   * Creates an empty tree of {@code pageSize}-token pages; {@code withHashes} computes each page's storage
   * key (a hash chain), needed only when an L3 storage is attached.
   */
  public RadixTree(int pageSize, boolean withHashes) {
    if (pageSize < 1) {
      throw new IllegalArgumentException("page size must be >= 1, got " + pageSize);
    }
    this.pageSize = pageSize;
    this.withHashes = withHashes;
    this.nodes = new NodeIndex(this, victims, pageSize, withHashes);
    this.evictor = new Evictor(this, victims, nodes);
    this.root = TreeNode.root(withHashes); // never evicted
    nodes.add(root);
  }

  /**
   * Replaces LRU as the eviction order by {@code order} (a total order on nodes that must not change while a
   * node is in the tree); only on an empty tree. Why: a spec-shaped simulation ({@code sim.SpecShaped})
   * evicts in the order of {@code HiCacheSync.tla} (smallest key first), so that its trace can be checked
   * step by step against the spec; the order of victims is no part of the sync protocol (any order that is a
   * function of the replicated tree keeps the trees equal).
   *
   * @throws IllegalStateException if the tree already holds a node
   */
  public void orderVictimsBy(Comparator<TreeNode> order) {
    if (nodes.size() > 1) {
      throw new IllegalStateException("the victim order is chosen before the first insertion");
    }
    victims.orderBy(order);
  }

  /**
   * Makes eviction pick the most recently used leaf first ({@code newest}) or the least (the protocol): a
   * rank whose clock orders the last accesses the other way from its peers' (knob {@code local_clock}, the
   * simulator's fault {@code local_lru_clock}). A bug switch: the protocol needs one order on every rank.
   */
  public void evictNewestFirst(boolean newest) {
    victims.evictNewestFirst(newest);
  }

  /** Returns tokens per page. */
  public int pageSize() {
    return pageSize;
  }

  /** Returns the root node. */
  public TreeNode root() {
    return root;
  }

  /** Returns the live node with {@code id}, or null once it is gone. */
  public TreeNode node(long id) {
    return nodes.get(id);
  }

  /** Returns the number of nodes, the root included. */
  public int size() {
    return nodes.size();
  }

  /** Returns the logical LRU clock. */
  public long clock() {
    return clock;
  }

  /** Returns the running hash of every mutation so far: equal on ranks that applied the same operations. */
  public long mutationHash() {
    return mutations;
  }

  // ---------------------------------------------------------------- match and insert

  /**
   * Matches the longest page-aligned prefix of {@code tokens}, splitting a node the match ends inside of
   * and stamping every matched node with a fresh logical time.
   */
  public MatchResult matchPrefix(int[] tokens) {
    int len = tokens.length - tokens.length % pageSize;
    long stamp = ++clock;
    TreeNode node = root;
    TreeNode lastDevice = root;
    int pos = 0;
    int device = 0;
    int host = 0;
    while (pos < len) {
      TreeNode child = nodes.descend(node, tokens, pos, len, stamp);
      if (child == null) {
        break;
      }
      if (child.device() != null && host == 0) {
        device += child.key().length;
        lastDevice = child;
      } else if (child.host() != null) {
        host += child.key().length;
      } else {
        break; // unreachable by the residency invariant; stop rather than count a hole
      }
      pos += child.key().length;
      node = child;
    }
    mutations = Mix64.mix(Mix64.mix(mutations, 1), pos);
    return new MatchResult(device, host, 0, lastDevice, node);
  }

  /**
   * Inserts {@code tokens} (whole pages only; a partial last page is ignored) with one device page per key
   * page; a host-only node on the way gets its device pages back, a node already on the device with other
   * pages makes the passed pages duplicates for the caller to free (passing the tree's own pages for a
   * matched prefix is the normal case and frees nothing).
   */
  public InsertResult insert(int[] tokens, int[] devicePages) {
    int pages = tokens.length / pageSize;
    if (devicePages.length < pages) {
      throw new IllegalArgumentException(devicePages.length + " device pages for " + pages + " key pages");
    }
    long stamp = ++clock;
    mutations = Mix64.mix(Mix64.mix(mutations, 2), pages);
    int len = pages * pageSize;
    TreeNode node = root;
    int pos = 0;
    List<TreeNode> path = new ArrayList<>();
    int[] dup = new int[pages];
    int ndup = 0;
    while (pos < len) {
      TreeNode child = nodes.descend(node, tokens, pos, len, stamp);
      if (child == null) {
        break;
      }
      int from = pos / pageSize;
      int n = child.key().length / pageSize;
      if (child.device() == null) {
        setDevice(child, Arrays.copyOfRange(devicePages, from, from + n));
      } else if (!Arrays.equals(child.device(), 0, n, devicePages, from, from + n)) {
        System.arraycopy(devicePages, from, dup, ndup, n); // the caller's own copy of a cached prefix
        ndup += n;
      }
      path.add(child);
      pos += child.key().length;
      node = child;
    }
    TreeNode created = null;
    if (pos < len) {
      int from = pos / pageSize;
      created = nodes.create(node, Arrays.copyOfRange(tokens, pos, len));
      victims.setDevice(created, Arrays.copyOfRange(devicePages, from, pages));
      mutations = Mix64.mix(mutations, created.device());
      victims.touch(created, stamp);
      path.add(created);
    }
    return new InsertResult(path, Arrays.copyOf(dup, ndup), created);
  }

  /**
   * Inserts {@code tokens} below {@code anchor} with host pages only (a completed prefetch, S5); returns
   * how many leading pages already existed, whose host pages the caller frees.
   */
  public int insertHost(TreeNode anchor, int[] tokens, int[] hostPages) {
    int pages = tokens.length / pageSize;
    long stamp = ++clock;
    mutations = Mix64.mix(Mix64.mix(Mix64.mix(mutations, 3), anchor.id()), pages);
    int len = pages * pageSize;
    TreeNode node = anchor;
    int pos = 0;
    while (pos < len) {
      TreeNode child = nodes.descend(node, tokens, pos, len, stamp);
      if (child == null) {
        break;
      }
      pos += child.key().length;
      node = child;
    }
    if (pos < len) {
      TreeNode created = nodes.create(node, Arrays.copyOfRange(tokens, pos, len));
      created.setHost(Arrays.copyOfRange(hostPages, pos / pageSize, pages));
      nodes.hostAdded();
      mutations = Mix64.mix(mutations, created.host());
      victims.touch(created, stamp);
    }
    return pos / pageSize;
  }

  // ---------------------------------------------------------------- residency, locks, protection

  /** Gives {@code node} its host pages (a write-through starts: BACKUP_PENDING). */
  public void setHost(TreeNode node, int[] hostPages) {
    checkPages(node, hostPages);
    if (node.host() == null) {
      nodes.hostAdded();
    }
    node.setHost(hostPages.clone());
    mutations = Mix64.mix(Mix64.mix(Mix64.mix(mutations, 4), node.id()), node.host());
  }

  /** Gives a host-only {@code node} device pages again (a load-back). */
  public void setDevice(TreeNode node, int[] devicePages) {
    checkPages(node, devicePages);
    victims.setDevice(node, devicePages.clone());
    mutations = Mix64.mix(Mix64.mix(Mix64.mix(mutations, 5), node.id()), node.device());
  }

  /** Locks {@code node} and its ancestors against device eviction ({@code inc_lock_ref}). */
  public void lockRef(TreeNode node) {
    for (TreeNode n = node; n != root && n != null; n = n.parent()) {
      n.incLockRef();
    }
    mutations = Mix64.mix(Mix64.mix(mutations, 6), node.id());
  }

  /** Undoes one {@link #lockRef} ({@code dec_lock_ref}). */
  public void unlockRef(TreeNode node) {
    for (TreeNode n = node; n != root && n != null; n = n.parent()) {
      if (n.lockRef() <= 0) {
        throw new IllegalStateException("lock_ref below 0 on " + n);
      }
      n.decLockRef();
    }
    mutations = Mix64.mix(Mix64.mix(mutations, 7), node.id());
  }

  /** Protects {@code node}'s host pages from host eviction ({@code protect_host}). */
  public void protectHost(TreeNode node) {
    node.incHostRef();
    mutations = Mix64.mix(Mix64.mix(mutations, 8), node.id());
  }

  /** Undoes one {@link #protectHost} ({@code release_host}). */
  public void releaseHost(TreeNode node) {
    if (node.hostRef() <= 0) {
      throw new IllegalStateException("host protection below 0 on " + node);
    }
    node.decHostRef();
    mutations = Mix64.mix(Mix64.mix(mutations, 9), node.id());
  }

  /** Counts a hit on {@code node} and returns the new count ({@code write_through_selective}). */
  public int incHit(TreeNode node) {
    mutations = Mix64.mix(Mix64.mix(mutations, 10), node.id());
    return node.incHitCount();
  }

  // ---------------------------------------------------------------- eviction

  /**
   * Evicts least-recently-used unlocked device leaves until {@code pages} device pages are freed or nothing
   * more can go; backed-up nodes become host-only, others are backed up through {@code sink} or dropped (a
   * device-only node over host-only children with the unprotected host-only subtree below it, see {@link
   * Evictor#dropHostOnlySubtree}). Returns the device pages freed.
   */
  public int evictDevice(int pages, DeviceEvictionSink sink) {
    return evictor.evictDevice(pages, sink);
  }

  /**
   * Evicts least-recently-used host-only, unprotected leaves until {@code pages} host pages are freed or
   * nothing more can go, handing each node's host pages to {@code freeHost}; returns the pages freed.
   */
  public int evictHost(int pages, Consumer<int[]> freeHost) {
    return evictor.evictHost(pages, freeHost);
  }

  // ---------------------------------------------------------------- digests and views

  /** Returns the canonical digest of the whole tree (O(nodes)). */
  public TreeDigest digest() {
    return TreeDigest.of(nodes.inIdOrder());
  }

  /** Returns one canonical line per node, in id order: what a divergence report prints side by side. */
  public List<String> describe() {
    return TreeDigest.describe(nodesById());
  }

  /** Returns every node in id order. */
  public List<TreeNode> nodesById() {
    return new ArrayList<>(nodes.inIdOrder());
  }

  /** Returns the nodes in LRU eviction order (oldest first), the root excluded. */
  public List<TreeNode> lruOrder() {
    return victims.all();
  }

  /** Returns the nodes device eviction walks, in its order ({@link VictimOrder}); for tests. */
  List<TreeNode> deviceLruOrder() {
    return victims.device();
  }

  // ---------------------------------------------------------------- internals

  /** Mixes one mutation (an operation {@code code} on node {@code id}) into {@link #mutationHash()}. */
  void mix(int code, long id) {
    mutations = Mix64.mix(Mix64.mix(mutations, code), id);
  }

  /** Mixes a mutation with a value (an operation {@code code} on node {@code id}, then {@code value}). */
  void mix(int code, long id, long value) {
    mutations = Mix64.mix(Mix64.mix(Mix64.mix(mutations, code), id), value);
  }

  /** Mixes the creation of {@code n} below {@code parent}: both ids, then the node's key. */
  void mixCreated(TreeNode n, TreeNode parent) {
    mutations = Mix64.mix(Mix64.mix(Mix64.mix(mutations, 13), n.id()), parent.id());
    mutations = n.mixKeyInto(mutations); // = Mix64.mix(mutations, key), and the node's key fingerprint
  }

  private void checkPages(TreeNode node, int[] pages) {
    if (pages.length * pageSize != node.key().length) {
      throw new IllegalArgumentException(pages.length + " pages for " + node);
    }
  }
}
