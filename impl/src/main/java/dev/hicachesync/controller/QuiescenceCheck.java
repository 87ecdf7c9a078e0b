package dev.hicachesync.controller;

import dev.hicachesync.tree.TreeNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The bounded liveness and no-leak check of a rank that should have fallen quiet (no requests, a long
 * drain behind it): acks not consumed ({@code AcksConsumed}), prefetches not finished ({@code
 * PrefetchTerminates}), transfers still using host slots, locks left, and pages owned by neither the tree
 * nor the free list ({@code HostSlotSafety}: no leaks). Scheduler thread only.
 */
final class QuiescenceCheck {
  private final RankState s;
  private final ProtocolSteps steps;

  QuiescenceCheck(RankState s, ProtocolSteps steps) {
    this.s = s;
    this.steps = steps;
  }

  List<String> run() {
    List<String> errors = new ArrayList<>();
    int[] q = s.queueSizes();
    if (q[0] + q[1] > 0) {
      errors.add("AcksConsumed: " + q[0] + " write and " + q[1] + " load acks never consumed");
    }
    if (q[2] + q[3] + q[4] > 0) {
      errors.add("AcksConsumed: control queues not drained (revoke " + q[2] + ", backup " + q[3]
          + ", release " + q[4] + ")");
    }
    Set<String> ongoing = s.prefetches().ongoingIds();
    if (!ongoing.isEmpty() || q[5] > 0) {
      errors.add("PrefetchTerminates: " + ongoing.size() + " prefetches still ongoing " + ongoing);
    }
    steps.addQueueErrors(errors);
    int busy = s.pools().host().busySlots();
    if (busy > 0) {
      errors.add("HostSlotSafety: " + busy + " host slots still used by a transfer");
    }
    int treeDevice = 0;
    int treeHost = 0;
    for (TreeNode n : s.tree().nodesById()) {
      if (n.parent() != null) {
        treeDevice += n.onDevice() ? n.tokens() / s.config().pageSize() : 0;
        treeHost += n.onHost() ? n.tokens() / s.config().pageSize() : 0;
        if (n.lockRef() != 0 || n.hostRef() != 0) {
          errors.add("locks left on " + n);
        }
      }
    }
    if (treeHost + s.pools().freeHostPages() != s.config().hostPages()) {
      errors.add("HostSlotSafety: host pages leak: tree " + treeHost + " + free " + s.pools().freeHostPages()
          + " != capacity " + s.config().hostPages());
    }
    if (treeDevice + s.pools().freeDevicePages() != s.config().devicePages()) {
      errors.add("device pages leak: tree " + treeDevice + " + free " + s.pools().freeDevicePages()
          + " != capacity " + s.config().devicePages());
    }
    return errors;
  }
}
