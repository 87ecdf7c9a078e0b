package dev.hicachesync.controller;

import dev.hicachesync.env.TransferEvent;

/** A pending load-back into the path ending at {@code nodeId}, read from {@code hostPages} (S2 pops it). */
record LoadAck(long nodeId, TransferEvent event, int[] hostPages) implements PendingCopy {}
