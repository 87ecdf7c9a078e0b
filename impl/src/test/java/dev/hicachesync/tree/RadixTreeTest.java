package dev.hicachesync.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The radix tree: pages, split, match, insert, locks, protection, LRU eviction, ids and digests. */
class RadixTreeTest {
  private static final int PS = 4;

  /** Tokens {@code from, from+1, ...} of {@code pages} pages. */
  private static int[] seq(int from, int pages) {
    return IntStream.range(from, from + pages * PS).toArray();
  }

  private static int[] concat(int[] a, int[] b) {
    int[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  private static int[] pages(int from, int n) {
    return IntStream.range(from, from + n).toArray();
  }

  @Test
  void matchOnEmptyTreeFindsNothing() {
    RadixTree t = new RadixTree(PS, false);
    MatchResult m = t.matchPrefix(seq(0, 3));
    assertEquals(0, m.deviceTokens());
    assertEquals(0, m.hostTokens());
    assertSame(t.root(), m.lastNode());
  }

  @Test
  void insertThenMatchIsPageGranular() {
    RadixTree t = new RadixTree(PS, false);
    int[] key = seq(0, 3);
    InsertResult r = t.insert(key, pages(10, 3));
    assertNotNull(r.newNode());
    assertEquals(0, r.duplicatePages().length);
    // A partial last page never matches: 2 whole pages + 3 tokens → 8 tokens.
    assertEquals(8, t.matchPrefix(Arrays.copyOf(key, 11)).deviceTokens());
    assertEquals(12, t.matchPrefix(key).deviceTokens());
  }

  @Test
  void divergingInsertSplitsTheNodeWithAFreshId() {
    RadixTree t = new RadixTree(PS, false);
    int[] a = seq(0, 4);
    TreeNode leafA = t.insert(a, pages(0, 4)).newNode();
    int[] b = concat(Arrays.copyOf(a, 2 * PS), seq(100, 2));
    InsertResult rb = t.insert(b, new int[] {0, 1, 50, 51});
    TreeNode upper = leafA.parent();
    assertNotSame(t.root(), upper);
    assertEquals(2 * PS, upper.tokens());
    assertEquals(2 * PS, leafA.tokens());
    assertArrayEquals(new int[] {0, 1}, upper.devicePages());
    assertArrayEquals(new int[] {2, 3}, leafA.devicePages());
    assertEquals(2, upper.children().size());
    assertEquals(0, rb.duplicatePages().length, "the tree's own pages for the prefix are no duplicates");
    assertTrue(upper.id() > leafA.id(), "the split node gets the next counter value");
  }

  private static void assertNotSame(Object a, Object b) {
    assertFalse(a == b);
  }

  @Test
  void duplicatePagesForACachedPrefixAreReturned() {
    RadixTree t = new RadixTree(PS, false);
    t.insert(seq(0, 2), pages(0, 2));
    InsertResult r = t.insert(seq(0, 3), new int[] {7, 8, 9});
    assertArrayEquals(new int[] {7, 8}, r.duplicatePages());
    assertArrayEquals(new int[] {9}, r.newNode().devicePages());
  }

  /**
   * The digest caches each node's key fingerprint: a digest taken before a split must not leave
   * a stale fingerprint behind, so a tree digested before and after a split equals its twin digested only
   * after, and a split changes the digest.
   */
  @Test
  void digestTakenBeforeASplitDoesNotLeaveAStaleKey() {
    RadixTree early = new RadixTree(PS, true);
    RadixTree late = new RadixTree(PS, true);
    early.insert(seq(0, 4), pages(0, 4));
    late.insert(seq(0, 4), pages(0, 4));
    TreeDigest beforeSplit = early.digest();
    for (RadixTree t : List.of(early, late)) {
      t.insert(concat(seq(0, 2), seq(300, 1)), new int[] {0, 1, 20}); // splits the 4-page node after 2 pages
    }
    assertEquals(late.digest(), early.digest());
    assertNotEquals(beforeSplit, early.digest());
  }

  @Test
  void sameOperationsGiveSameIdsAndDigests() {
    RadixTree a = new RadixTree(PS, true);
    RadixTree b = new RadixTree(PS, true);
    for (RadixTree t : List.of(a, b)) {
      t.insert(seq(0, 4), pages(0, 4));
      t.insert(concat(seq(0, 1), seq(200, 2)), new int[] {0, 9, 10});
      t.matchPrefix(seq(0, 3));
    }
    assertEquals(a.digest(), b.digest());
    assertEquals(a.mutationHash(), b.mutationHash());
    assertEquals(a.describe(), b.describe());
    b.lockRef(b.node(1));
    assertNotEquals(a.digest(), b.digest(), "a lock count is part of the digest");
    assertNotEquals(a.mutationHash(), b.mutationHash());
  }

  @Test
  void lruOrderFollowsTheLogicalClockNotWallTime() {
    RadixTree t = new RadixTree(PS, false);
    TreeNode x = t.insert(seq(0, 1), pages(0, 1)).newNode();
    TreeNode y = t.insert(seq(100, 1), pages(1, 1)).newNode();
    TreeNode z = t.insert(seq(200, 1), pages(2, 1)).newNode();
    t.matchPrefix(seq(0, 1)); // x becomes the most recent
    assertEquals(List.of(y, z, x), t.lruOrder());
    FreedPages freed = new FreedPages();
    assertEquals(2, t.evictDevice(2, freed));
    assertEquals(List.of(1, 2), freed.pages, "y then z: the two least recently used");
    assertNull(t.node(y.id()));
    assertNotNull(t.node(x.id()));
  }

  @Test
  void lockedNodesAndTheirAncestorsAreNotEvicted() {
    RadixTree t = new RadixTree(PS, false);
    TreeNode leaf = t.insert(seq(0, 2), pages(0, 2)).newNode();
    t.lockRef(leaf);
    assertEquals(0, t.evictDevice(10, new FreedPages()));
    t.unlockRef(leaf);
    assertEquals(2, t.evictDevice(10, new FreedPages()));
    assertThrows(IllegalStateException.class, () -> t.unlockRef(leaf), "lock_ref never goes below 0");
  }

  @Test
  void backedUpNodesBecomeHostOnlyAndLoadBackRestoresThem() {
    RadixTree t = new RadixTree(PS, false);
    TreeNode n = t.insert(seq(0, 2), pages(0, 2)).newNode();
    t.setHost(n, new int[] {40, 41});
    assertEquals(2, t.evictDevice(2, new FreedPages()));
    assertFalse(n.onDevice());
    MatchResult m = t.matchPrefix(seq(0, 2));
    assertEquals(0, m.deviceTokens());
    assertEquals(8, m.hostTokens());
    assertSame(n, m.lastNode());
    t.setDevice(n, new int[] {5, 6});
    assertEquals(8, t.matchPrefix(seq(0, 2)).deviceTokens());
  }

  @Test
  void hostEvictionTakesOnlyUnprotectedHostOnlyLeaves() {
    RadixTree t = new RadixTree(PS, false);
    TreeNode a = t.insert(seq(0, 1), pages(0, 1)).newNode();
    TreeNode b = t.insert(seq(100, 1), pages(1, 1)).newNode();
    t.setHost(a, new int[] {30});
    t.setHost(b, new int[] {31});
    List<Integer> freed = new ArrayList<>();
    assertEquals(0, t.evictHost(2, p -> freed.add(p[0])), "both still on the device");
    t.evictDevice(2, new FreedPages());
    t.protectHost(a);
    assertEquals(1, t.evictHost(2, p -> freed.add(p[0])));
    assertEquals(List.of(31), freed);
    t.releaseHost(a);
    assertEquals(1, t.evictHost(2, p -> freed.add(p[0])));
    assertEquals(1, t.size(), "only the root is left");
  }

  @Test
  void insertHostAddsHostOnlyPagesUnderTheAnchor() {
    RadixTree t = new RadixTree(PS, true);
    TreeNode anchor = t.insert(seq(0, 2), pages(0, 2)).newNode();
    int present = t.insertHost(anchor, seq(500, 3), new int[] {60, 61, 62});
    assertEquals(0, present);
    MatchResult m = t.matchPrefix(concat(seq(0, 2), seq(500, 3)));
    assertEquals(8, m.deviceTokens());
    assertEquals(12, m.hostTokens());
    assertEquals(2, t.insertHost(anchor, seq(500, 2), new int[] {70, 71}), "already there: caller frees");
    assertEquals(1, m.lastNode().pageKeys().length, "the second insert split the 3-page node after 2");
  }

  @Test
  void storageKeysChainAcrossSplits() {
    RadixTree a = new RadixTree(PS, true);
    TreeNode whole = a.insert(seq(0, 3), pages(0, 3)).newNode();
    RadixTree b = new RadixTree(PS, true);
    b.insert(seq(0, 1), pages(0, 1));
    TreeNode tail = b.insert(seq(0, 3), pages(0, 3)).newNode();
    assertEquals(whole.pageKeys()[2], tail.pageKeys()[1], "the third page's key does not depend on splits");
  }

  /**
   * A device-only node whose children are all host-only (its own backup never happened, a child's did and
   * the child was then evicted from the device) is a leaf of the device tree: device eviction must be able
   * to free it, dropping the host-only subtree below it with it, or its pages and its ancestors' stay
   * pinned (the RequestsProgress starvation the property tests found).
   */
  @Test
  void deviceOnlyNodeOverHostOnlyChildrenIsEvictedWithItsSubtree() {
    RadixTree t = new RadixTree(PS, false);
    TreeNode parent = t.insert(seq(0, 3), pages(0, 3)).newNode();
    TreeNode child = t.insert(seq(0, 5), pages(0, 5)).newNode();
    TreeNode grandChild = t.insert(seq(0, 6), pages(0, 6)).newNode();
    t.setHost(child, new int[] {20, 21});
    t.setHost(grandChild, new int[] {22});
    FreedPages freed = new FreedPages();
    assertEquals(3, t.evictDevice(3, freed), "grandchild and child demoted to the host");
    assertFalse(child.onDevice());
    assertFalse(grandChild.onDevice());
    assertTrue(parent.onDevice());
    assertFalse(parent.onHost());

    assertEquals(3, t.evictDevice(3, freed), "the device-only parent goes, its host-only subtree with it");
    assertNull(t.node(parent.id()));
    assertNull(t.node(child.id()));
    assertNull(t.node(grandChild.id()));
    assertEquals(1, t.size());
    assertEquals(List.of(5, 3, 4, 0, 1, 2), freed.pages);
    assertEquals(List.of(20, 21, 22), freed.hostPages, "host pages freed in node-id order");
    assertEquals(0, t.matchPrefix(seq(0, 6)).hostTokens());
  }

  @Test
  void protectedHostOnlySubtreeKeepsItsDeviceOnlyParentUntilReleased() {
    RadixTree t = new RadixTree(PS, false);
    TreeNode parent = t.insert(seq(0, 2), pages(0, 2)).newNode();
    TreeNode child = t.insert(seq(0, 3), pages(0, 3)).newNode();
    t.setHost(child, new int[] {9});
    FreedPages freed = new FreedPages();
    assertEquals(1, t.evictDevice(1, freed));
    t.protectHost(child); // a storage backup or a prefetch anchor still uses the child's host pages
    assertEquals(0, t.evictDevice(2, freed), "a protected host page is never dropped");
    assertTrue(parent.onDevice());
    t.releaseHost(child);
    assertEquals(2, t.evictDevice(2, freed));
    assertNull(t.node(parent.id()));
    assertEquals(List.of(9), freed.hostPages);
  }

  @Test
  void lockedDeviceOnlyNodeOverHostOnlyChildStays() {
    RadixTree t = new RadixTree(PS, false);
    TreeNode parent = t.insert(seq(0, 2), pages(0, 2)).newNode();
    TreeNode child = t.insert(seq(0, 3), pages(0, 3)).newNode();
    t.setHost(child, new int[] {9});
    FreedPages freed = new FreedPages();
    assertEquals(1, t.evictDevice(1, freed));
    t.lockRef(parent);
    assertEquals(0, t.evictDevice(2, freed));
    t.unlockRef(parent);
    assertEquals(2, t.evictDevice(2, freed));
  }

  /**
   * A victim order other than LRU (what a spec-shaped run uses: smallest first token first) decides which
   * leaf goes, even against recency; LRU on the same accesses picks the other one. Only on an empty tree.
   */
  @Test
  void aChosenVictimOrderReplacesLru() {
    for (boolean byKey : new boolean[] {true, false}) {
      RadixTree t = new RadixTree(PS, false);
      if (byKey) {
        t.orderVictimsBy(java.util.Comparator.<TreeNode>comparingInt(n -> n.token(0))
            .thenComparingLong(TreeNode::id));
      }
      int[] small = new int[PS];
      int[] big = new int[PS];
      Arrays.fill(small, 1);
      Arrays.fill(big, 2);
      t.insert(small, pages(0, 1));
      t.insert(big, pages(1, 1));
      t.matchPrefix(small); // the small key is now the most recently used
      FreedPages freed = new FreedPages();
      assertEquals(1, t.evictDevice(1, freed));
      assertEquals(List.of(byKey ? 0 : 1), freed.pages, byKey ? "smallest key first" : "LRU");
    }
    RadixTree used = new RadixTree(PS, false);
    used.insert(seq(0, 1), pages(0, 1));
    assertThrows(IllegalStateException.class, () -> used.orderVictimsBy(java.util.Comparator.comparingLong(TreeNode::id)));
  }

  /**
   * The node map iterates in id order without a sort: after splits and evictions have freed
   * many ids and the counter has run far past the live nodes, {@code nodesById} is still sorted by id.
   */
  @Test
  void nodesByIdStayInIdOrderAfterSplitsAndEvictions() {
    RadixTree t = new RadixTree(PS, false);
    FreedPages freed = new FreedPages();
    int page = 0;
    for (int round = 0; round < 6; round++) {
      for (int i = 0; i < 200; i++) {
        int[] prompt = concat(seq(100_000 * round + 10 * (i % 20), 1), seq(1_000_000 + 1000 * i + round, 2));
        InsertResult r = t.insert(prompt, pages(page, 3)); // shares its first page with every 20th: splits
        page += 3;
        if (r.newNode() == null) {
          fail("prompt " + i + " of round " + round + " was not new");
        }
      }
      t.evictDevice(400, freed); // frees ids of 2 rounds in 3: later rounds' ids run past the live ones
    }
    List<TreeNode> nodes = t.nodesById();
    long maxId = nodes.stream().mapToLong(TreeNode::id).max().orElse(0);
    assertTrue(nodes.size() > 50 && maxId > 4 * nodes.size(),
        "a tree of " + nodes.size() + " nodes, ids up to " + maxId + ", proves little");
    for (int i = 1; i < nodes.size(); i++) {
      assertTrue(nodes.get(i - 1).id() < nodes.get(i).id(),
          "node " + nodes.get(i - 1).id() + " listed before node " + nodes.get(i).id());
    }
  }

  /** A new node's mutation-hash pass also gives its key fingerprint: both equal the values computed apart. */
  @Test
  void mixKeyIntoEqualsTheTwoHashesComputedApart() {
    TreeNode n = new TreeNode(7);
    n.setPlace(null, seq(12_345, 5), null);
    long h = 0x1234_5678_9abc_def0L;
    assertEquals(Mix64.mix(h, n.key()), n.mixKeyInto(h));
    assertEquals(Mix64.mix(0L, n.key()), n.keyMix());
    TreeNode fresh = new TreeNode(8);
    fresh.setPlace(null, n.key().clone(), null);
    assertEquals(Mix64.mix(0L, fresh.key()), fresh.keyMix(), "computed lazily when never mixed in");
  }

  /**
   * A replica's key hashes are taken by another node only for an equal key mixed from the same running hash
   * ({@link SharedKeyMixes}): the second node below takes the first one's entry, the third (one token
   * changed, same length: the same slot) and the fourth (another running hash) compute their own.
   */
  @Test
  void mixKeyIntoTakesAnotherReplicasHashesOnlyForAnEqualKeyAndRunningHash() {
    long h = 0x0fed_cba9_8765_4321L;
    TreeNode first = new TreeNode(1);
    first.setPlace(null, seq(777, 4 * 64), null);
    assertEquals(Mix64.mix(h, first.key()), first.mixKeyInto(h));
    TreeNode replica = new TreeNode(1);
    replica.setPlace(null, first.key().clone(), null);
    assertEquals(Mix64.mix(h, replica.key()), replica.mixKeyInto(h), "taken from the first node's entry");
    assertEquals(Mix64.mix(0L, replica.key()), replica.keyMix(), "the fingerprint taken with it");
    TreeNode other = new TreeNode(1);
    other.setPlace(null, first.key().clone(), null);
    other.key()[100]++;
    assertEquals(Mix64.mix(h, other.key()), other.mixKeyInto(h), "one token differs");
    assertEquals(Mix64.mix(0L, other.key()), other.keyMix());
    TreeNode later = new TreeNode(2);
    later.setPlace(null, first.key().clone(), null);
    assertEquals(Mix64.mix(h + 1, later.key()), later.mixKeyInto(h + 1), "another running hash");
  }
}
