package dev.hicachesync.tree;

import dev.hicachesync.storage.PageKey;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * One node of the radix tree: a run of whole pages, their device and host slots, locks and LRU stamp.
 *
 * <p>Scheduler thread only. Fields are private; the tree's classes ({@link RadixTree}, {@link NodeIndex}, {@link
 * Evictor}, {@link VictimOrder}) change them through the package-private methods, so that every mutation goes
 * through the tree's digest; the rest of the library reads them through the public getters.
 */
public final class TreeNode {
  private final long id;
  private TreeNode parent;
  /** Token ids, a whole number of pages. */
  private int[] key;
  private final Map<ChildKey, TreeNode> children = new HashMap<>();
  /** Device page per key page, or null once evicted from the device. */
  private int[] device;
  /** Host page per key page, or null while not backed up. */
  private int[] host;
  /** Storage key per page (a hash chain), or null when storage is off. */
  private PageKey[] hashes;
  /**
   * Content seed per key page, or null until first asked for ({@link #cachedPageSeeds}); a pure function
   * of each page's tokens, so a split divides it like {@link #hashes}. Why cached: the data path asks for
   * a node's seeds at every backup, write-back, load and check, and a replay's prompts are thousands of
   * tokens long.
   */
  private long[] pageSeeds;
  /** Locks held on this node's subtree; device eviction needs 0 ({@code lock_ref}). */
  private int lockRef;
  /** Host protection ({@code host_ref_counter}): ongoing prefetch anchor or storage backup. */
  private int hostRef;
  /** Hits counted for {@code write_through_selective}. */
  private int hitCount;
  /** Logical-clock stamp of the last access: LRU order, never wall time. */
  private long lastAccess;

  /** {@link Mix64#mix(long, int[])} of {@link #key} from 0, once {@link #keyMixValid}. */
  private long keyMix;
  private boolean keyMixValid;

  /**
   * Returns a 64-bit fingerprint of the node's key, computed once per key (a split changes the key and
   * calls {@link #keyChanged}). Why: the tree digest mixes every node's key, and re-reading every token of
   * the tree at every digest was the largest single cost of a replay's profile.
   */
  long keyMix() {
    if (!keyMixValid) {
      keyMix = Mix64.mix(0L, key);
      keyMixValid = true;
    }
    return keyMix;
  }

  /**
   * Returns {@link Mix64#mix(long, int[]) Mix64.mix(h, key)} and sets {@link #keyMix()} in the same pass
   * over the key. Why: a new node's key is mixed into the tree's mutation hash at once and into the digest
   * later; the two chains are independent, so the processor runs them side by side for about the cost of
   * one (the digest's pass was a sixth of a replay's profile). Same values as computed apart; a
   * replica that already hashed an equal key from the same running hash lends its result
   * ({@link SharedKeyMixes}).
   */
  long mixKeyInto(long h) {
    int[] k = key;
    SharedKeyMixes.Entry known = SharedKeyMixes.find(h, k);
    if (known != null) { // another replica hashed this key after the same mutations (SharedKeyMixes)
      keyMix = known.fingerprint();
      keyMixValid = true;
      return known.mixed();
    }
    long a = Mix64.mix(h, k.length);
    long b = Mix64.mix(0L, k.length);
    for (int v : k) {
      a = Mix64.mix(a, v);
      b = Mix64.mix(b, v);
    }
    SharedKeyMixes.remember(new SharedKeyMixes.Entry(h, k, a, b));
    keyMix = b;
    keyMixValid = true;
    return a;
  }

  /** Forgets the key fingerprint after {@link #key} was replaced. */
  void keyChanged() {
    keyMixValid = false;
  }

  /**
   * Returns the node's page seeds, computing them with {@code compute} (from the node) the first time;
   * the array is shared: callers must not modify it. Owner thread of the tree.
   */
  public long[] cachedPageSeeds(java.util.function.Function<TreeNode, long[]> compute) {
    long[] s = pageSeeds;
    if (s == null) {
      s = compute.apply(this);
      pageSeeds = s;
    }
    return s;
  }

  /**
   * Moves this node's first {@code pages} pages (key, device and host slots, storage keys, seeds) to the
   * fresh node {@code upper} of a split, which also takes this node's locks (every lock on this node's path
   * covers the upper part too), LRU stamp and hits. Linking the two is the tree's job ({@link RadixTree}).
   */
  void movePagesTo(TreeNode upper, int pages, int pageSize) {
    int cut = pages * pageSize;
    upper.key = Arrays.copyOfRange(key, 0, cut);
    upper.lockRef = lockRef;
    upper.lastAccess = lastAccess;
    upper.hitCount = hitCount;
    if (device != null) {
      upper.device = Arrays.copyOfRange(device, 0, pages);
      device = Arrays.copyOfRange(device, pages, device.length);
    }
    if (host != null) {
      upper.host = Arrays.copyOfRange(host, 0, pages);
      host = Arrays.copyOfRange(host, pages, host.length);
    }
    if (hashes != null) {
      upper.hashes = Arrays.copyOfRange(hashes, 0, pages);
      hashes = Arrays.copyOfRange(hashes, pages, hashes.length);
    }
    if (pageSeeds != null) {
      upper.pageSeeds = Arrays.copyOfRange(pageSeeds, 0, pages);
      pageSeeds = Arrays.copyOfRange(pageSeeds, pages, pageSeeds.length);
    }
    key = Arrays.copyOfRange(key, cut, key.length);
    keyChanged();
  }

  TreeNode(long id) {
    this.id = id;
  }

  /** A tree's root: id 0, no pages, locked forever (never evicted). */
  static TreeNode root(boolean withHashes) {
    TreeNode root = new TreeNode(0);
    root.key = new int[0];
    root.device = new int[0];
    root.host = new int[0];
    root.hashes = withHashes ? new PageKey[0] : null;
    root.lockRef = 1;
    return root;
  }

  // ---------------------------------------------------------------- the tree package's access

  /** The key's tokens (not a copy: the tree only reads them). */
  int[] key() { return key; }
  Map<ChildKey, TreeNode> children() { return children; }
  /** Device page per key page (not a copy), or null. */
  int[] device() { return device; }
  /** Host page per key page (not a copy), or null. */
  int[] host() { return host; }
  /** Storage key per page (not a copy), or null. */
  PageKey[] hashes() { return hashes; }
  int hitCount() { return hitCount; }

  /** A new node's place: below {@code p} with {@code k}, and its storage keys (or null). */
  void setPlace(TreeNode p, int[] k, PageKey[] h) {
    parent = p;
    key = k;
    hashes = h;
  }

  void setParent(TreeNode p) { parent = p; }
  void setDevice(int[] pages) { device = pages; }
  void setHost(int[] pages) { host = pages; }
  void touch(long stamp) { lastAccess = stamp; }
  void incLockRef() { lockRef++; }
  void decLockRef() { lockRef--; }
  void incHostRef() { hostRef++; }
  void decHostRef() { hostRef--; }
  /** Counts a hit; returns the new count. */
  int incHitCount() { return ++hitCount; }

  /** Returns the node id, equal on every rank that applied the same operations. */
  public long id() {
    return id;
  }

  /** Returns the parent, null for the root. */
  public TreeNode parent() {
    return parent;
  }

  /** Returns the number of tokens of this node's key. */
  public int tokens() {
    return key.length;
  }

  /** Returns whether the node's pages are on the device. */
  public boolean onDevice() {
    return device != null;
  }

  /** Returns whether the node's pages have host slots (backed up, or a backup is pending). */
  public boolean onHost() {
    return host != null;
  }

  /** Returns a copy of the device pages, or null. */
  public int[] devicePages() {
    return device == null ? null : device.clone();
  }

  /** Returns a copy of the host pages, or null. */
  public int[] hostPages() {
    return host == null ? null : host.clone();
  }

  /** Returns token {@code i} of this node's key (no copy: the data path derives page content from it). */
  public int token(int i) {
    return key[i];
  }

  /** Returns the storage keys of the pages, or null when storage is off. */
  public PageKey[] pageKeys() {
    return hashes == null ? null : hashes.clone();
  }

  /** Returns {@code lock_ref}. */
  public int lockRef() {
    return lockRef;
  }

  /** Returns the host protection count. */
  public int hostRef() {
    return hostRef;
  }

  /** Returns the LRU stamp. */
  public long lastAccess() {
    return lastAccess;
  }

  /** Returns whether no child hangs below. */
  public boolean isLeaf() {
    return children.isEmpty();
  }

  @Override
  public String toString() {
    return "node " + id + " {tokens=" + key.length + ", device=" + (device != null) + ", host="
        + (host != null) + ", lock=" + lockRef + ", hostRef=" + hostRef + ", lru=" + lastAccess + "}";
  }
}
