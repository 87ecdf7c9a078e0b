package dev.hicachesync.controller;

import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import dev.hicachesync.tier.PageAllocator;

/**
 * The host pool plus a count, per slot, of transfers still reading or writing it: frees go through here
 * so that freeing a slot in use is caught at once (INV-7, {@code HostSlotSafety}).
 *
 * <p>Scheduler thread for allocation and frees; the simulator runs the I/O callbacks that clear the
 * counts on the same thread (a production build would make {@link #busy} atomic).
 */
final class HostSlotLedger {
  private final PageAllocator pool;
  private final int[] busy;

  HostSlotLedger(int pages) {
    this.pool = new PageAllocator(pages);
    this.busy = new int[pages];
  }

  PageAllocator pool() {
    return pool;
  }

  int[] allocate(int n) {
    return pool.allocate(n);
  }

  void markBusy(int[] slots, int from, int to) {
    for (int i = from; i < to; i++) {
      busy[slots[i]]++;
    }
  }

  void clearBusy(int[] slots, int from, int to) {
    for (int i = from; i < to; i++) {
      busy[slots[i]]--;
    }
  }

  /** Frees {@code slots}; a slot that a transfer still uses, or one already free, violates INV-7. */
  void free(int[] slots, String why) {
    for (int s : slots) {
      if (busy[s] > 0) {
        throw new InvariantViolation(Invariant.HostSlotSafety,
            "host slot " + s + " freed (" + why + ") while " + busy[s] + " transfer(s) still use it");
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
    for (int b : busy) {
      n += b > 0 ? 1 : 0;
    }
    return n;
  }
}
