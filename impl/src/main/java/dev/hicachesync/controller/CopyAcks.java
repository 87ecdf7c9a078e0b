package dev.hicachesync.controller;

import dev.hicachesync.tree.RadixTree;
import dev.hicachesync.tree.TreeNode;

/**
 * One rank's write and load acks ({@code ack_write_queue}, {@code ack_load_queue}): the local S1/S2 values
 * (the leading completed acks) and the pops every rank makes once the sync point decided how many.
 * Scheduler thread only (the copies complete on the acks' own events, see {@link CopyAckQueue}).
 */
final class CopyAcks {
  private final RankState s;
  private final CopyAckQueue<WriteAck> writes = new CopyAckQueue<>();
  private final CopyAckQueue<LoadAck> loads = new CopyAckQueue<>();
  private final LoadLocks loadLocks = new LoadLocks(loads);

  CopyAcks(RankState s) {
    this.s = s;
  }

  void addWrite(WriteAck ack) {
    writes.add(ack);
  }

  /** The load-backs' locks and the pages they write, until S2 pops their acks. */
  LoadLocks loadLocks() {
    return loadLocks;
  }

  void addLoad(LoadAck ack) {
    loads.add(ack);
  }

  /** The write acks at the head whose copy is done here (S1's local value). */
  int writesDone() {
    return writes.leadingDone();
  }

  /** The load acks at the head whose copy is done here (S2's local value). */
  int loadsDone() {
    return loads.leadingDone();
  }

  int writesQueued() {
    return writes.size();
  }

  int loadsQueued() {
    return loads.size();
  }

  /**
   * Returns the load-backs still in flight into any of {@code devicePages} (their event not done): what a
   * reader of those pages must wait for. A popped ack's event was awaited at S2, so only queued ones can be
   * in flight. Scheduler thread.
   */
  java.util.List<LoadAck> loadsInto(int[] devicePages) {
    java.util.List<LoadAck> out = new java.util.ArrayList<>(0);
    if (loads.size() == 0 || devicePages.length == 0) {
      return out;
    }
    java.util.BitSet wanted = new java.util.BitSet();
    for (int p : devicePages) {
      wanted.set(p);
    }
    for (LoadAck a : loads.queued()) {
      if (a.event().isDone()) {
        continue;
      }
      for (int p : a.devicePages()) {
        if (wanted.get(p)) {
          out.add(a);
          break;
        }
      }
    }
    return out;
  }

  /** The write-ack queue itself, for the concurrency tests of its leading count. */
  CopyAckQueue<WriteAck> writeQueue() {
    return writes;
  }

  /** Pops exactly {@code n} write acks (S1 decision): unlock, then start the storage backup. */
  void popWrites(int n) {
    s.hashes().mixAck(1, n);
    RadixTree tree = s.tree();
    for (int i = 0; i < n; i++) {
      WriteAck ack = writes.poll();
      if (ack == null) {
        throw new IllegalStateException("S1 decided " + n + " pops but only " + i + " write acks are queued");
      }
      ack.event().await(); // done already on stage 0; a later PP stage blocks on its own event
      s.pools().host().clearBusy(ack.hostPages(), 0, ack.hostPages().length);
      TreeNode node = tree.node(ack.nodeId());
      tree.unlockRef(node);
      s.stats().writeAckPopped();
      if (s.storage().active()) {
        // The seeds taken at the write still describe the node unless a split cut its key since (a split
        // only shortens a node's key, so an unchanged page count means an unchanged key).
        long[] seeds = ack.seeds();
        s.storage().backup(node, seeds != null && seeds.length == node.tokens() / s.config().pageSize() ? seeds
            : s.data().seeds(node));
      }
    }
  }

  /** Pops exactly {@code n} load acks (S2 decision): unlock the loaded path. */
  void popLoads(int n) {
    s.hashes().mixAck(2, n);
    RadixTree tree = s.tree();
    for (int i = 0; i < n; i++) {
      LoadAck ack = loads.poll();
      if (ack == null) {
        throw new IllegalStateException("S2 decided " + n + " pops but only " + i + " load acks are queued");
      }
      ack.event().await();
      s.pools().host().clearBusy(ack.hostPages(), 0, ack.hostPages().length);
      if (loadLocks.popped(ack)) {
        tree.unlockRef(tree.node(ack.nodeId()));
      }
      s.stats().loadAckPopped();
    }
  }
}
