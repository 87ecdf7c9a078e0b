package dev.hicachesync.controller;

import dev.hicachesync.env.TransferEvent;

/** A pending write-through: node {@code nodeId}'s device pages copied into {@code hostPages} (S1 pops it). */
record WriteAck(long nodeId, TransferEvent event, int[] hostPages, long[] seeds) implements PendingCopy {

  /** An ack without the node's content seeds (the storage backup computes them). */
  WriteAck(long nodeId, TransferEvent event, int[] hostPages) {
    this(nodeId, event, hostPages, null);
  }
}
