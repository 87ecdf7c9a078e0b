package dev.hicachesync.controller;

import dev.hicachesync.env.TransferEvent;

/**
 * A pending load-back into the path ending at {@code nodeId}: read from {@code hostPages} into {@code
 * devicePages} (S2 pops it; until its event is done the device pages do not yet hold the bytes).
 */
record LoadAck(long nodeId, TransferEvent event, int[] hostPages, int[] devicePages) implements PendingCopy {}
