package dev.hicachesync.controller;

import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import dev.hicachesync.tier.PageAllocator;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The host pool plus a count, per slot, of transfers still reading or writing it: frees go through here
 * so that freeing a slot in use is caught at once (INV-7, {@code HostSlotSafety}).
 *
 * <p>Concurrency contract: <b>allocation and frees</b> on the scheduler thread (at synced points, which is
 * what keeps them identical across ranks); <b>{@link #markBusy}</b> by whoever hands slots to a transfer
 * (the scheduler at a copy's issue, the prefetch I/O thread before its next batch, the backup's starter);
 * <b>{@link #clearBusy}</b> by the thread on which the transfer lands (copy engine, I/O or backup thread).
 * The busy counts are an {@link AtomicIntegerArray}: increments and decrements from several threads never
 * lose an update, and a free that reads a count of 0 sees every write the clearing thread made to the slot
 * before it (the counts' volatile semantics). The pool is {@link PageAllocator}, itself thread-safe.
 * Lincheck checks the ledger against a counting model ({@code HostSlotLedgerLincheckTest}); no jcstress test
 * is needed because no plain field is shared between threads.
 */
final class HostSlotLedger {
  private final PageAllocator pool;
  private final AtomicIntegerArray busy;
  /** Whether {@link #free} checks the busy counts (off only under the {@code untrackedSlots} fault). */
  private final boolean checked;

  HostSlotLedger(int pages, boolean checked) {
    this.pool = new PageAllocator(pages);
    this.busy = new AtomicIntegerArray(pages);
    this.checked = checked;
  }

  PageAllocator pool() {
    return pool;
  }

  int[] allocate(int n) {
    return pool.allocate(n);
  }

  /** A transfer starts using {@code slots[from, to)}. The thread handing them to the transfer. */
  void markBusy(int[] slots, int from, int to) {
    for (int i = from; i < to; i++) {
      busy.incrementAndGet(slots[i]);
    }
  }

  /** A transfer stopped using {@code slots[from, to)}. The thread the transfer lands on. */
  void clearBusy(int[] slots, int from, int to) {
    for (int i = from; i < to; i++) {
      busy.decrementAndGet(slots[i]);
    }
  }

  /** Frees {@code slots}; a slot that a transfer still uses, or one already free, violates INV-7. */
  void free(int[] slots, String why) {
    for (int s : slots) {
      int users = checked && s >= 0 && s < busy.length() ? busy.get(s) : 0;
      if (users > 0) {
        throw new InvariantViolation(Invariant.HostSlotSafety,
            "host slot " + s + " freed (" + why + ") while " + users + " transfer(s) still use it");
      }
    }
    try {
      pool.free(slots);
    } catch (IllegalStateException e) {
      throw new InvariantViolation(Invariant.HostSlotSafety, e.getMessage() + " (" + why + ")");
    }
  }

  /** Returns the number of slots some transfer still uses. */
  int busySlots() {
    int n = 0;
    for (int s = 0; s < busy.length(); s++) {
      n += busy.get(s) > 0 ? 1 : 0;
    }
    return n;
  }
}
