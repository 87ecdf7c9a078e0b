package dev.hicachesync.controller;

import dev.hicachesync.testing.LincheckRuns;
import dev.hicachesync.tier.PageAllocator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Broken twin of {@link HostSlotLedger}: busy counts in a plain {@code int[]} (what the ledger had while
 * every transfer landed on the scheduler thread). Two transfers of one slot landing at once lose a
 * decrement: the slot stays busy forever (a leak the quiescence check reports) or, with the opposite
 * interleaving on increments, a slot in use looks free and S3 frees it (INV-7). Must be rejected.
 */
@Tag("lincheck")
public class PlainCountHostSlotLedgerLincheckTest extends AbstractHostSlotLedgerLincheckTest {
  public PlainCountHostSlotLedgerLincheckTest() {
    super(new PlainCounts());
  }

  @Test
  void modelCheckingRejects() {
    LincheckRuns.assertRejected(
        () -> LincheckRuns.modelCheckingBroken(3, 2, HostSlotLedgerSpec.class).check(getClass()), null);
  }

  /** The ledger's logic over plain counts (the bug: {@code busy[s]--} is a read and a write). */
  static final class PlainCounts implements Ledger {
    private final PageAllocator pool = new PageAllocator(SLOTS);
    private final int[] busy = new int[SLOTS];

    PlainCounts() {
      pool.allocate(2);
      busy[0] = 3;
    }

    @Override
    public void clearBusy(int slot) {
      busy[slot]--;
    }

    @Override
    public String free(int slot) {
      if (busy[slot] > 0) {
        return "busy";
      }
      try {
        pool.free(new int[] {slot});
        return "ok";
      } catch (IllegalStateException e) {
        return "double free";
      }
    }

    @Override
    public String allocate() {
      return java.util.Arrays.toString(pool.allocate(1));
    }

    @Override
    public int busySlots() {
      int n = 0;
      for (int b : busy) {
        n += b > 0 ? 1 : 0;
      }
      return n;
    }
  }
}
