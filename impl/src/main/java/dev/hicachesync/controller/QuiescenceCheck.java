package dev.hicachesync.controller;

import dev.hicachesync.tree.TreeNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The bounded liveness and no-leak check of a rank that should have fallen quiet (no requests, a long
 * drain behind it): acks not consumed ({@code AcksConsumed}), prefetches not finished ({@code
 * PrefetchTerminates}), transfers still using host slots, locks left, and pages owned by neither the tree
 * nor the free list ({@code HostSlotSafety}: no leaks). Scheduler thread only.
 */
final class QuiescenceCheck {
  private final CacheController c;

  QuiescenceCheck(CacheController c) {
    this.c = c;
  }

  List<String> run() {
    List<String> errors = new ArrayList<>();
    int[] q = c.queueSizes();
    if (q[0] + q[1] > 0) {
      errors.add("AcksConsumed: " + q[0] + " write and " + q[1] + " load acks never consumed");
    }
    if (q[2] + q[3] + q[4] > 0) {
      errors.add("AcksConsumed: control queues not drained (revoke " + q[2] + ", backup " + q[3]
          + ", release " + q[4] + ")");
    }
    if (!c.ongoingPrefetch.isEmpty() || q[5] > 0) {
      errors.add("PrefetchTerminates: " + c.ongoingPrefetch.size() + " prefetches still ongoing "
          + c.ongoingPrefetch.keySet());
    }
    if (c.unified != null) {
      int hits = c.unified.hitQueue.size();
      int acks = c.unified.ackQueue.size();
      if (hits + acks > 0 || !c.unified.holding.isEmpty()) {
        errors.add("AcksConsumed: unified queues not drained (hit " + hits + ", ack-prefetch " + acks
            + ", prefetches holding host slots " + c.unified.holding.size() + ")");
      }
    }
    int busy = c.host.busySlots();
    if (busy > 0) {
      errors.add("HostSlotSafety: " + busy + " host slots still used by a transfer");
    }
    int treeDevice = 0;
    int treeHost = 0;
    for (TreeNode n : c.tree.nodesById()) {
      if (n.parent() != null) {
        treeDevice += n.onDevice() ? n.tokens() / c.config.pageSize() : 0;
        treeHost += n.onHost() ? n.tokens() / c.config.pageSize() : 0;
        if (n.lockRef() != 0 || n.hostRef() != 0) {
          errors.add("locks left on " + n);
        }
      }
    }
    if (treeHost + c.host.pool().freeCount() != c.config.hostPages()) {
      errors.add("HostSlotSafety: host pages leak: tree " + treeHost + " + free " + c.host.pool().freeCount()
          + " != capacity " + c.config.hostPages());
    }
    if (treeDevice + c.device.freeCount() != c.config.devicePages()) {
      errors.add("device pages leak: tree " + treeDevice + " + free " + c.device.freeCount()
          + " != capacity " + c.config.devicePages());
    }
    return errors;
  }
}
