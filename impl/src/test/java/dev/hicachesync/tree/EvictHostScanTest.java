package dev.hicachesync.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code write_through} with no host pool asks the tree for host pages on every insert; with
 * nothing on the host, {@link RadixTree#evictHost} must answer at once instead of scanning every node
 * (the conversation trace at 4 ranks never finished). The bound is a thousand times the fixed cost, so
 * load on the machine does not decide the outcome: 100,000 calls over 10,000 device-only nodes are
 * 10^9 node visits with the scan and 100,000 counter reads without.
 */
class EvictHostScanTest {
  private static final int PS = 4;

  @Test
  void withNothingOnTheHostEvictionIsNotAScanPerCall() {
    RadixTree t = new RadixTree(PS, false);
    for (int i = 0; i < 10_000; i++) {
      t.insert(new int[] {i, i + 1, i + 2, i + 3}, new int[] {i});
    }
    List<int[]> freed = new ArrayList<>();
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      for (int i = 0; i < 100_000; i++) {
        assertEquals(0, t.evictHost(1, freed::add));
      }
    });
    assertEquals(0, freed.size());
  }

  @Test
  void hostPagesAreStillEvictedOnceANodeHoldsThem() {
    RadixTree t = new RadixTree(PS, false);
    TreeNode a = t.insert(new int[] {1, 2, 3, 4}, new int[] {0}).newNode();
    t.setHost(a, new int[] {7});
    t.evictDevice(1, new FreedPages());
    List<int[]> freed = new ArrayList<>();
    assertEquals(1, t.evictHost(1, freed::add));
    assertEquals(7, freed.get(0)[0]);
    assertEquals(0, t.evictHost(1, freed::add), "deleted: nothing left to evict");
  }
}
