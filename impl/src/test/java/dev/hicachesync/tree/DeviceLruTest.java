package dev.hicachesync.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Device eviction walks the device set of {@code VictimOrder}, which must hold exactly the nodes of the LRU order that
 * have device pages, in that order: then it meets the nodes the walk over the whole LRU order did not skip,
 * and evicts the same victims. Checked after every operation of random operation sequences
 * (inserts over shared prefixes, matches that split, backups, load-backs, host inserts, locks, evictions).
 */
class DeviceLruTest {
  private static final int PS = 2;

  @Test
  void deviceLruIsTheLruOrderOfTheNodesOnTheDevice() {
    qt().withFixedSeed(29L).withExamples(60).forAll(longs().all()).checkAssert(seed -> {
      Random rnd = new Random(seed);
      RadixTree t = new RadixTree(PS, false);
      List<int[]> seqs = new ArrayList<>();
      List<TreeNode> locked = new ArrayList<>(); // one entry per lockRef call not yet undone
      int[] nextPage = {0};
      DeviceEvictionSink sink = new FreedPages();
      for (int op = 0; op < 300; op++) {
        int kind = rnd.nextInt(8);
        List<TreeNode> nodes = t.nodesById();
        TreeNode any = nodes.get(rnd.nextInt(nodes.size()));
        switch (kind) {
          case 0, 1 -> {
            int[] s = sequence(rnd, seqs);
            seqs.add(s);
            t.insert(s, pages(nextPage, s.length / PS));
          }
          case 2 -> t.matchPrefix(sequence(rnd, seqs));
          case 3 -> {
            if (any != t.root() && any.host() == null) {
              t.setHost(any, pages(nextPage, any.tokens() / PS));
            }
          }
          case 4 -> t.evictDevice(1 + rnd.nextInt(6), sink);
          case 5 -> {
            if (any != t.root() && any.device() == null && any.host() != null) {
              t.setDevice(any, pages(nextPage, any.tokens() / PS));
            } else {
              t.evictHost(1 + rnd.nextInt(4), p -> { });
            }
          }
          case 6 -> t.insertHost(any, sequence(rnd, seqs), pages(nextPage, 8));
          default -> {
            if (!locked.isEmpty() && rnd.nextBoolean()) {
              t.unlockRef(locked.remove(rnd.nextInt(locked.size())));
            } else if (any != t.root() && rnd.nextInt(3) == 0) {
              t.lockRef(any);
              locked.add(any);
            }
          }
        }
        List<TreeNode> expected = new ArrayList<>();
        for (TreeNode n : t.lruOrder()) {
          if (n.device() != null) {
            expected.add(n);
          }
        }
        assertEquals(ids(expected), ids(t.deviceLruOrder()), "after operation " + op + " (" + kind + "), seed " + seed);
      }
    });
  }

  /** A sequence of 1-6 pages over a small alphabet, often extending an earlier one (shared prefixes, splits). */
  private static int[] sequence(Random rnd, List<int[]> earlier) {
    int[] head = earlier.isEmpty() || rnd.nextInt(3) == 0 ? new int[0]
        : earlier.get(rnd.nextInt(earlier.size()));
    head = Arrays.copyOf(head, Math.min(head.length, PS * rnd.nextInt(4)));
    int[] s = Arrays.copyOf(head, head.length + PS * (1 + rnd.nextInt(3)));
    for (int i = head.length; i < s.length; i++) {
      s[i] = rnd.nextInt(3);
    }
    return s;
  }

  private static int[] pages(int[] next, int n) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = next[0]++;
    }
    return p;
  }

  private static List<Long> ids(List<TreeNode> nodes) {
    return nodes.stream().map(TreeNode::id).toList();
  }
}
