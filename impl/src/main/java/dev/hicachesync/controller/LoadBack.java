package dev.hicachesync.controller;

import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.env.TransferKind;
import dev.hicachesync.tree.MatchResult;
import dev.hicachesync.tree.TreeNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Load-back ({@code init_load_back}): the host-only nodes of a match get device pages and a host→device
 * copy; the path stays locked until S2 pops the load ack.
 *
 * <p>Failure path: unlocking on this rank's own event (no S2) lets an admission evict the node on the
 * fastest rank only (B5). Scheduler thread only.
 */
final class LoadBack {
  private final RankState s;

  LoadBack(RankState s) {
    this.s = s;
  }

  int run(MatchResult m) {
    if (m.hostTokens() == 0 || m.hostTokens() < s.config().loadBackThresholdTokens()) {
      return 0;
    }
    List<TreeNode> path = new ArrayList<>();
    for (TreeNode n = m.lastNode(); n != m.lastDeviceNode(); n = n.parent()) {
      path.add(n);
    }
    Collections.reverse(path);
    int pages = m.hostTokens() / s.config().pageSize();
    s.tree().lockRef(m.lastNode()); // keeps the device part of the path while we evict for room
    int[] dev = s.pools().allocateDevice(pages);
    if (dev == null) {
      s.tree().unlockRef(m.lastNode());
      return 0;
    }
    int[] hostPages = new int[pages];
    int at = 0;
    for (TreeNode n : path) {
      int[] hp = n.hostPages();
      s.tree().setDevice(n, Arrays.copyOfRange(dev, at, at + hp.length));
      System.arraycopy(hp, 0, hostPages, at, hp.length);
      at += hp.length;
    }
    TransferEvent ev = s.data().path().fromHost(s.env().copy(TransferKind.HOST_TO_DEVICE, pages), hostPages, dev,
        seeds(path, pages));
    s.pools().host().markBusy(hostPages, 0, pages);
    s.acks().addLoad(new LoadAck(m.lastNode().id(), ev, hostPages, dev));
    s.stats().hostToDeviceCopy(pages);
    return m.hostTokens();
  }

  /** Returns the content seeds of the path's pages in order, or null when no bytes move. */
  private long[] seeds(List<TreeNode> path, int pages) {
    if (!s.data().moves()) {
      return null;
    }
    long[] seeds = new long[pages];
    int at = 0;
    for (TreeNode n : path) {
      long[] ns = s.data().seeds(n);
      System.arraycopy(ns, 0, seeds, at, ns.length);
      at += ns.length;
    }
    return seeds;
  }
}
