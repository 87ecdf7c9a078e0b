package dev.hicachesync.controller;

import dev.hicachesync.env.TransferEvent;

/** A pending write-through: node {@code nodeId}'s device pages copied into {@code hostPages} (S1 pops it). */
record WriteAck(long nodeId, TransferEvent event, int[] hostPages) {}
