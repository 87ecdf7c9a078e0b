package dev.hicachesync.controller;

import dev.hicachesync.env.TransferKind;

/**
 * The I/O thread of {@code unified} ({@code cache_controller.py::_page_transfer}; HiCacheUnified.tla
 * {@code PfRead}): reads the synced hit batch by batch into the slots the hit drain allocated, and stops at
 * the first failure or once the scheduler stopped the operation. Its acks are counted by {@link
 * UnifiedPrefetchThread} from {@link PrefetchOperation#completedPages()}; the slots stay the prefetch's until
 * the final ack is drained. I/O thread (the simulator: the rank's event queue).
 */
final class UnifiedReads {
  private final RankState s;

  UnifiedReads(RankState s) {
    this.s = s;
  }

  /** Starts reading {@code op} (its slots allocated); the scheduler thread, at the hit drain. */
  void start(PrefetchOperation op) {
    if (!op.beginReading()) {
      return;
    }
    s.pools().host().markBusy(op.hostPages(), 0, PrefetchThreadStep.batchEnd(s, op, 0));
    issue(op, 0);
  }

  private void issue(PrefetchOperation op, int from) {
    int to = PrefetchThreadStep.batchEnd(s, op, from);
    s.env().background(TransferKind.STORAGE_READ, to - from, ok -> landed(op, from, to, ok));
  }

  private void landed(PrefetchOperation op, int from, int to, boolean ok) {
    boolean read = ok && s.storage().readPages(op, from, to);
    if (read) {
      s.stats().storageRead(to - from);
    } else {
      s.stats().storageReadFailed();
    }
    int next = PrefetchThreadStep.landBatch(s, op, from, to, read);
    if (next >= 0) {
      issue(op, next);
    }
  }
}
