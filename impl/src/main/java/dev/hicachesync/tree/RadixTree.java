package dev.hicachesync.tree;

import dev.hicachesync.storage.PageKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
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
  /** LRU order: oldest stamp first, then lowest id (an ancestor before a descendant created later). */
  private static final Comparator<TreeNode> LRU =
      Comparator.<TreeNode>comparingLong(n -> n.lastAccess).thenComparingLong(n -> n.id);

  private final int pageSize;
  private final boolean withHashes;
  private final TreeNode root;
  /**
   * Live nodes by id, iterated in id order: ids come from a counter and each node is put here as soon as it
   * gets its id, so insertion order is id order ({@link #nodesById} needs no sort; the digest walks it).
   */
  private final Map<Long, TreeNode> byId = new LinkedHashMap<>();
  private TreeSet<TreeNode> lru = new TreeSet<>(LRU);
  /**
   * The nodes of {@link #lru} that hold device pages, in the same order: what device eviction walks. Why a
   * second set: eviction skips every node without device pages, and in a long replay most of the tree is
   * host-only, so each eviction walked past thousands of them. Same victims in the same order:
   * eviction never gives a node device pages, so the walk over this set meets exactly the nodes the walk
   * over {@link #lru} did not skip. Kept by {@link #setDeviceOf}, {@link #touch} and {@link #delete}.
   */
  private TreeSet<TreeNode> deviceLru = new TreeSet<>(LRU);
  /** {@link #evictNewestFirst}: eviction walks the LRU order from its newest end. */
  private boolean newestFirst;
  private long nextId = 1;
  private long clock;
  private long mutations;
  /** Nodes (root excluded) that hold host pages: when 0, host eviction has nothing to find. */
  private int hostNodes;

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
    this.root = new TreeNode(0);
    root.key = new int[0];
    root.device = new int[0];
    root.host = new int[0];
    root.hashes = withHashes ? new PageKey[0] : null;
    root.lockRef = 1; // never evicted
    byId.put(0L, root);
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
    if (byId.size() > 1) {
      throw new IllegalStateException("the victim order is chosen before the first insertion");
    }
    lru = new TreeSet<>(order);
    deviceLru = new TreeSet<>(order);
  }

  /**
   * Makes eviction pick the most recently used leaf first ({@code newest}) or the least (the protocol): a
   * rank whose clock orders the last accesses the other way from its peers' (knob {@code local_clock}, the
   * simulator's fault {@code local_lru_clock}). A bug switch: the protocol needs one order on every rank.
   */
  public void evictNewestFirst(boolean newest) {
    this.newestFirst = newest;
  }

  private TreeNode firstVictim(TreeSet<TreeNode> order) {
    return order.isEmpty() ? null : newestFirst ? order.last() : order.first();
  }

  private TreeNode nextVictim(TreeSet<TreeNode> order, TreeNode n) {
    return newestFirst ? order.lower(n) : order.higher(n);
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
    return byId.get(id);
  }

  /** Returns the number of nodes, the root included. */
  public int size() {
    return byId.size();
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
      TreeNode child = descend(node, tokens, pos, len, stamp);
      if (child == null) {
        break;
      }
      if (child.device != null && host == 0) {
        device += child.key.length;
        lastDevice = child;
      } else if (child.host != null) {
        host += child.key.length;
      } else {
        break; // unreachable by the residency invariant; stop rather than count a hole
      }
      pos += child.key.length;
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
      TreeNode child = descend(node, tokens, pos, len, stamp);
      if (child == null) {
        break;
      }
      int from = pos / pageSize;
      int n = child.key.length / pageSize;
      if (child.device == null) {
        setDevice(child, Arrays.copyOfRange(devicePages, from, from + n));
      } else if (!Arrays.equals(child.device, 0, n, devicePages, from, from + n)) {
        System.arraycopy(devicePages, from, dup, ndup, n); // the caller's own copy of a cached prefix
        ndup += n;
      }
      path.add(child);
      pos += child.key.length;
      node = child;
    }
    TreeNode created = null;
    if (pos < len) {
      int from = pos / pageSize;
      created = create(node, Arrays.copyOfRange(tokens, pos, len));
      setDeviceOf(created, Arrays.copyOfRange(devicePages, from, pages));
      mutations = Mix64.mix(mutations, created.device);
      touch(created, stamp);
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
    mutations = Mix64.mix(Mix64.mix(Mix64.mix(mutations, 3), anchor.id), pages);
    int len = pages * pageSize;
    TreeNode node = anchor;
    int pos = 0;
    while (pos < len) {
      TreeNode child = descend(node, tokens, pos, len, stamp);
      if (child == null) {
        break;
      }
      pos += child.key.length;
      node = child;
    }
    if (pos < len) {
      TreeNode created = create(node, Arrays.copyOfRange(tokens, pos, len));
      created.host = Arrays.copyOfRange(hostPages, pos / pageSize, pages);
      hostNodes++;
      mutations = Mix64.mix(mutations, created.host);
      touch(created, stamp);
    }
    return pos / pageSize;
  }

  // ---------------------------------------------------------------- residency, locks, protection

  /** Gives {@code node} its host pages (a write-through starts: BACKUP_PENDING). */
  public void setHost(TreeNode node, int[] hostPages) {
    checkPages(node, hostPages);
    if (node.host == null) {
      hostNodes++;
    }
    node.host = hostPages.clone();
    mutations = Mix64.mix(Mix64.mix(Mix64.mix(mutations, 4), node.id), node.host);
  }

  /** Gives a host-only {@code node} device pages again (a load-back). */
  public void setDevice(TreeNode node, int[] devicePages) {
    checkPages(node, devicePages);
    setDeviceOf(node, devicePages.clone());
    mutations = Mix64.mix(Mix64.mix(Mix64.mix(mutations, 5), node.id), node.device);
  }

  /** Locks {@code node} and its ancestors against device eviction ({@code inc_lock_ref}). */
  public void lockRef(TreeNode node) {
    for (TreeNode n = node; n != root && n != null; n = n.parent) {
      n.lockRef++;
    }
    mutations = Mix64.mix(Mix64.mix(mutations, 6), node.id);
  }

  /** Undoes one {@link #lockRef} ({@code dec_lock_ref}). */
  public void unlockRef(TreeNode node) {
    for (TreeNode n = node; n != root && n != null; n = n.parent) {
      if (n.lockRef <= 0) {
        throw new IllegalStateException("lock_ref below 0 on " + n);
      }
      n.lockRef--;
    }
    mutations = Mix64.mix(Mix64.mix(mutations, 7), node.id);
  }

  /** Protects {@code node}'s host pages from host eviction ({@code protect_host}). */
  public void protectHost(TreeNode node) {
    node.hostRef++;
    mutations = Mix64.mix(Mix64.mix(mutations, 8), node.id);
  }

  /** Undoes one {@link #protectHost} ({@code release_host}). */
  public void releaseHost(TreeNode node) {
    if (node.hostRef <= 0) {
      throw new IllegalStateException("host protection below 0 on " + node);
    }
    node.hostRef--;
    mutations = Mix64.mix(Mix64.mix(mutations, 9), node.id);
  }

  /** Counts a hit on {@code node} and returns the new count ({@code write_through_selective}). */
  public int incHit(TreeNode node) {
    mutations = Mix64.mix(Mix64.mix(mutations, 10), node.id);
    return ++node.hitCount;
  }

  // ---------------------------------------------------------------- eviction

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
    List<TreeNode> todo = new ArrayList<>(n.children.values());
    while (!todo.isEmpty()) {
      TreeNode c = todo.remove(todo.size() - 1);
      if (c.device != null || c.hostRef > 0 || c.host == null) {
        return false;
      }
      below.add(c);
      todo.addAll(c.children.values());
    }
    below.sort(Comparator.comparingLong(c -> c.id));
    for (TreeNode c : below) {
      if (c.host != null) {
        hostNodes--;
      }
      byId.remove(c.id);
      lru.remove(c);
      mutations = Mix64.mix(Mix64.mix(mutations, 15), c.id);
    }
    n.children.clear();
    for (TreeNode c : below) {
      sink.freeHost(c.host);
    }
    return true;
  }

  /**
   * Evicts least-recently-used unlocked device leaves until {@code pages} device pages are freed or nothing
   * more can go; backed-up nodes become host-only, others are backed up through {@code sink} or dropped (a
   * device-only node over host-only children with the unprotected host-only subtree below it, see {@link
   * #dropHostOnlySubtree}). Returns the device pages freed.
   */
  public int evictDevice(int pages, DeviceEvictionSink sink) {
    int freed = 0;
    boolean progress = true;
    // Why passes: evicting a leaf can make its parent a leaf, and the parent may sort earlier (same stamp,
    // lower id); another pass picks it up, in the same deterministic order on every rank.
    while (freed < pages && progress) {
      progress = false;
      // Cursor walk: higher() stays valid when the current node is deleted.
      for (TreeNode n = firstVictim(deviceLru), next; n != null && freed < pages; n = next) {
        next = nextVictim(deviceLru, n);
        if (n.device == null || n.lockRef > 0 || hasDeviceChild(n)) {
          continue;
        }
        int[] dev = n.device;
        if (n.host != null || sink.backupBeforeEviction(n)) {
          setDeviceOf(n, null);
        } else if (n.hostRef == 0 && n.children.isEmpty()) {
          delete(n);
        } else if (n.hostRef == 0 && dropHostOnlySubtree(n, sink)) {
          delete(n);
          next = nextVictim(deviceLru, n); // as over lru (a dropped descendant is host-only, never this cursor)
        } else {
          continue;
        }
        mutations = Mix64.mix(Mix64.mix(mutations, 11), n.id);
        sink.freeDevice(dev);
        freed += dev.length;
        progress = true;
      }
    }
    return freed;
  }

  /**
   * Evicts least-recently-used host-only, unprotected leaves until {@code pages} host pages are freed or
   * nothing more can go, handing each node's host pages to {@code freeHost}; returns the pages freed.
   */
  public int evictHost(int pages, Consumer<int[]> freeHost) {
    if (hostNodes == 0) {
      // Nothing holds host pages (no host pool, or none written yet): the scan below would visit every
      // node to find nothing, once per insert under write_through (a run that never finished).
      return 0;
    }
    int freed = 0;
    boolean progress = true;
    while (freed < pages && progress) {
      progress = false;
      for (TreeNode n = firstVictim(lru), next; n != null && freed < pages; n = next) {
        next = nextVictim(lru, n);
        if (n.device != null || n.host == null || n.hostRef > 0 || n.lockRef > 0 || !n.children.isEmpty()) {
          continue;
        }
        int[] host = n.host;
        delete(n);
        mutations = Mix64.mix(Mix64.mix(mutations, 12), n.id);
        freeHost.accept(host);
        freed += host.length;
        progress = true;
      }
    }
    return freed;
  }

  // ---------------------------------------------------------------- digests and views

  /** Returns the canonical digest of the whole tree (O(nodes)). */
  public TreeDigest digest() {
    long h = 17;
    int dev = 0;
    int host = 0;
    for (TreeNode n : byId.values()) { // id order
      h = Mix64.mix(h, n.id);
      h = Mix64.mix(h, n.parent == null ? -1 : n.parent.id);
      h = Mix64.mix(h, n.keyMix()); // the key's fingerprint, cached per node: equal keys, equal mixes
      h = Mix64.mix(h, n.device);
      h = Mix64.mix(h, n.host);
      h = Mix64.mix(h, n.lockRef);
      h = Mix64.mix(h, n.hostRef);
      h = Mix64.mix(h, n.lastAccess);
      if (n.hashes != null) {
        for (PageKey k : n.hashes) {
          h = Mix64.mix(h, k.hashCode());
        }
      }
      dev += n.device == null ? 0 : n.device.length;
      host += n.host == null ? 0 : n.host.length;
    }
    return new TreeDigest(h, byId.size(), dev, host);
  }

  /** Returns one canonical line per node, in id order: what a divergence report prints side by side. */
  public List<String> describe() {
    List<String> lines = new ArrayList<>();
    for (TreeNode n : nodesById()) {
      lines.add(String.format(
          "node %d parent=%s tokens=%d key#=%08x device=%s host=%s lock=%d hostRef=%d lru=%d",
          n.id, n.parent == null ? "-" : Long.toString(n.parent.id), n.key.length,
          Arrays.hashCode(n.key), n.device == null ? "-" : Arrays.toString(n.device),
          n.host == null ? "-" : Arrays.toString(n.host), n.lockRef, n.hostRef, n.lastAccess));
    }
    return lines;
  }

  /** Returns every node in id order. */
  public List<TreeNode> nodesById() {
    return new ArrayList<>(byId.values()); // insertion order is id order (see byId)
  }

  /** Returns the nodes in LRU eviction order (oldest first), the root excluded. */
  public List<TreeNode> lruOrder() {
    return new ArrayList<>(lru);
  }

  /** Returns the nodes device eviction walks, in its order ({@link #deviceLru}); for tests. */
  List<TreeNode> deviceLruOrder() {
    return new ArrayList<>(deviceLru);
  }

  // ---------------------------------------------------------------- internals

  private TreeNode create(TreeNode parent, int[] key) {
    TreeNode n = new TreeNode(nextId++);
    n.key = key;
    n.parent = parent;
    n.hashes = withHashes ? chain(parent, key) : null;
    parent.children.put(new ChildKey(key, 0, pageSize), n);
    byId.put(n.id, n);
    mutations = Mix64.mix(Mix64.mix(Mix64.mix(mutations, 13), n.id), parent.id);
    mutations = n.mixKeyInto(mutations); // = Mix64.mix(mutations, key), and the node's key fingerprint
    return n;
  }

  /** Splits {@code child} after {@code pages} pages; returns the new upper node (fresh id). */
  private TreeNode split(TreeNode child, int pages) {
    int cut = pages * pageSize;
    TreeNode upper = new TreeNode(nextId++);
    upper.parent = child.parent;
    upper.key = Arrays.copyOfRange(child.key, 0, cut);
    upper.lockRef = child.lockRef; // every lock on the child's path also covers the upper part
    upper.lastAccess = child.lastAccess;
    upper.hitCount = child.hitCount;
    if (child.device != null) {
      upper.device = Arrays.copyOfRange(child.device, 0, pages); // joins deviceLru with lru below
      child.device = Arrays.copyOfRange(child.device, pages, child.device.length); // stays in deviceLru
    }
    if (child.host != null) {
      hostNodes++;
      upper.host = Arrays.copyOfRange(child.host, 0, pages);
      child.host = Arrays.copyOfRange(child.host, pages, child.host.length);
    }
    if (child.hashes != null) {
      upper.hashes = Arrays.copyOfRange(child.hashes, 0, pages);
      child.hashes = Arrays.copyOfRange(child.hashes, pages, child.hashes.length);
    }
    child.splitPageSeeds(upper, pages);
    child.parent.children.put(new ChildKey(upper.key, 0, pageSize), upper);
    child.key = Arrays.copyOfRange(child.key, cut, child.key.length);
    child.keyChanged();
    child.parent = upper;
    upper.children.put(new ChildKey(child.key, 0, pageSize), child);
    byId.put(upper.id, upper);
    lru.add(upper);
    if (upper.device != null) {
      deviceLru.add(upper);
    }
    mutations = Mix64.mix(Mix64.mix(Mix64.mix(mutations, 14), child.id), pages);
    return upper;
  }

  private void delete(TreeNode n) {
    if (n.host != null) {
      hostNodes--;
    }
    n.parent.children.remove(new ChildKey(n.key, 0, pageSize));
    byId.remove(n.id);
    lru.remove(n);
    deviceLru.remove(n);
  }

  private void touch(TreeNode n, long stamp) {
    lru.remove(n); // before the stamp changes: the sets find a node by its order
    deviceLru.remove(n);
    n.lastAccess = stamp;
    lru.add(n);
    if (n.device != null) {
      deviceLru.add(n);
    }
  }

  /**
   * Sets {@code n}'s device pages (null: none) and keeps {@link #deviceLru} to the nodes of {@link #lru} that
   * have some. A node not in {@link #lru} yet (a new node before its first touch) joins at that touch.
   */
  private void setDeviceOf(TreeNode n, int[] pages) {
    n.device = pages;
    if (pages == null) {
      deviceLru.remove(n);
    } else if (lru.contains(n)) {
      deviceLru.add(n);
    }
  }

  private static boolean hasDeviceChild(TreeNode n) {
    for (TreeNode c : n.children.values()) {
      if (c.device != null) {
        return true;
      }
    }
    return false;
  }

  /**
   * The child of {@code node} that shares the page at {@code pos} of {@code tokens}, split so that it holds
   * only the pages they share and touched at {@code stamp}; null when no child shares that page.
   */
  private TreeNode descend(TreeNode node, int[] tokens, int pos, int len, long stamp) {
    TreeNode child = node.children.get(new ChildKey(tokens, pos, pageSize));
    if (child == null) {
      return null;
    }
    int common = commonPages(child.key, tokens, pos, len);
    if (common * pageSize < child.key.length) {
      child = split(child, common);
    }
    touch(child, stamp);
    return child;
  }

  private int commonPages(int[] key, int[] tokens, int pos, int len) {
    int max = Math.min(key.length, len - pos) / pageSize;
    int p = 0;
    outer:
    while (p < max) {
      int base = p * pageSize;
      for (int i = 0; i < pageSize; i++) {
        if (key[base + i] != tokens[pos + base + i]) {
          break outer;
        }
      }
      p++;
    }
    return p;
  }

  private PageKey[] chain(TreeNode parent, int[] key) {
    PageKey prev = parent.hashes == null || parent.hashes.length == 0 ? null
        : parent.hashes[parent.hashes.length - 1];
    PageKey[] out = new PageKey[key.length / pageSize];
    for (int i = 0; i < out.length; i++) {
      prev = PageKey.chain(prev, key, i * pageSize, pageSize);
      out[i] = prev;
    }
    return out;
  }

  private void checkPages(TreeNode node, int[] pages) {
    if (pages.length * pageSize != node.key.length) {
      throw new IllegalArgumentException(pages.length + " pages for " + node);
    }
  }
}
