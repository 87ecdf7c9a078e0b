package dev.hicachesync.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.tree.InsertResult;
import dev.hicachesync.tree.TreeNode;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The write-through backup invariant ({@code hiradix_cache.write_backup}: a parent is backed up before its
 * child). Without it a failed parent backup (no host room) next to a successful child backup leaves a
 * device-only node over a host-only child once the child is evicted from the device: such a node can be
 * neither demoted (no host copy) nor deleted (not a leaf), so it and every ancestor pin their device
 * pages forever and admission starves ({@code RequestsProgress}, the pinned {@code ReplayTest} cases).
 */
class BackupInvariantTest {
  private static final int PS = 4;

  private static CacheController controller(int devicePages, int hostPages) {
    ControllerConfig cfg = new ControllerConfig(PS, devicePages, hostPages, WritePolicy.WRITE_THROUGH,
        PrefetchPolicy.BEST_EFFORT, false, 2 * PS, PS, 2, 10, 0, 1024);
    return new CacheController(cfg, new ManualEnv(), null, null, null, null, "r0");
  }

  private static int[] tokens(int pages) {
    return IntStream.range(0, pages * PS).toArray();
  }

  @Test
  void childIsNotBackedUpWhileItsParentIsNot() {
    CacheController c = controller(16, 2);
    // Parent: 3 pages, more than the whole host pool: its write-through cannot get slots.
    int[] dev = c.allocateDevice(3);
    TreeNode parent = c.insert(tokens(3), dev).newNode();
    assertNotNull(parent);
    assertFalse(parent.onHost(), "3 pages do not fit a 2-page host pool");
    // Child: 1 page below it, which alone would fit.
    int[] more = c.allocateDevice(1);
    int[] all = Arrays.copyOf(dev, 4);
    all[3] = more[0];
    InsertResult r = c.insert(tokens(4), all);
    TreeNode child = r.newNode();
    assertNotNull(child);
    assertFalse(child.onHost(), "a child must not be backed up before its parent");
    assertEquals(2, c.view().freeHostPages(), "no host slot was taken");
    assertEquals(0, c.view().queueSizes()[0], "no write ack queued");
  }

  @Test
  void childIsBackedUpOnceItsParentIs() {
    CacheController c = controller(16, 8);
    int[] dev = c.allocateDevice(4);
    TreeNode parent = c.insert(tokens(3), Arrays.copyOf(dev, 3)).newNode();
    assertTrue(parent.onHost());
    TreeNode child = c.insert(tokens(4), dev).newNode();
    assertTrue(child.onHost());
    assertEquals(2, c.view().queueSizes()[0]);
  }
}
