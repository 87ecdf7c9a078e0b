package dev.hicachesync.controller;

import dev.hicachesync.tree.RadixTree;
import java.util.BitSet;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * What a load-back holds until S2 pops its ack ({@code loading_check}): the lock on its node, so that no
 * admission evicts the device pages it still writes, and those pages themselves. {@link #queuedInto} is the
 * spec's HP6 ({@code HostSlotSafety}: every node of a queued load ack is on the device), which {@link Pools}
 * checks at every device free. Under the knob {@code abort_unlock_load} ({@link #dropFor}) an abort of the
 * running request drops the load-back's lock with the request's, before S2: the path an admission can then
 * evict while the load still writes it. Scheduler thread only.
 */
final class LoadLocks {
  private final CopyAckQueue<LoadAck> loads;
  /** Queued acks whose lock an abort already dropped: S2 pops them without unlocking again. */
  private final Set<LoadAck> dropped = Collections.newSetFromMap(new IdentityHashMap<>());

  LoadLocks(CopyAckQueue<LoadAck> loads) {
    this.loads = loads;
  }

  /** Whether a load ack S2 has not popped (its copy done or not) writes into any of {@code pages}. */
  boolean queuedInto(int[] pages) {
    if (loads.size() == 0 || pages.length == 0) {
      return false;
    }
    BitSet freed = pageSet(pages);
    for (LoadAck a : loads.queued()) {
      if (writesInto(a, freed)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Knob {@code abort_unlock_load}: unlocks now the node of every queued load-back into {@code devicePages} (an
   * aborted running request's pages) whose lock is still held; returns how many were dropped.
   */
  int dropFor(int[] devicePages, RadixTree tree) {
    int n = 0;
    BitSet mine = pageSet(devicePages);
    for (LoadAck a : loads.queued()) {
      if (!dropped.contains(a) && writesInto(a, mine)) {
        dropped.add(a);
        tree.unlockRef(tree.node(a.nodeId()));
        n++;
      }
    }
    return n;
  }

  /** S2 pops {@code ack}: returns whether its lock is still to be dropped (not already by an abort). */
  boolean popped(LoadAck ack) {
    return !dropped.remove(ack);
  }

  private static boolean writesInto(LoadAck a, BitSet pages) {
    for (int p : a.devicePages()) {
      if (pages.get(p)) {
        return true;
      }
    }
    return false;
  }

  private static BitSet pageSet(int[] pages) {
    BitSet set = new BitSet();
    for (int p : pages) {
      set.set(p);
    }
    return set;
  }
}
