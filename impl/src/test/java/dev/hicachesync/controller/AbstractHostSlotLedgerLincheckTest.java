package dev.hicachesync.controller;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;

/**
 * Operation catalogue for the host-slot ledger (INV-7, {@code HostSlotSafety}): slots 0 and 1 are
 * allocated when the parallel part starts, slot 0 used by three transfers, slot 1 by none; transfers of
 * slot 0 land on any thread ({@link #clear}: all on one slot, so that parallel landings collide); the
 * scheduler frees slots (rejected while a transfer still uses one, or when already free), allocates, and
 * counts busy slots. Checked against {@link HostSlotLedgerSpec}.
 */
@Param(name = "slot", gen = IntGen.class, conf = "0:1")
public abstract class AbstractHostSlotLedgerLincheckTest {
  /** Host slots in the pool. */
  static final int SLOTS = 4;

  /** The component under test. */
  interface Ledger {
    void clearBusy(int slot);

    /** "ok", "busy" (a transfer still uses it) or "double free". */
    String free(int slot);

    String allocate();

    int busySlots();
  }

  private final Ledger ledger;

  AbstractHostSlotLedgerLincheckTest(Ledger ledger) {
    this.ledger = ledger;
  }

  /** A transfer using slot 0 landed (copy engine, I/O or backup thread). */
  @Operation
  public void clear() {
    ledger.clearBusy(0);
  }

  @Operation(params = {"slot"}, nonParallelGroup = "scheduler")
  public String free(int slot) {
    return ledger.free(slot);
  }

  @Operation(nonParallelGroup = "scheduler")
  public String allocate() {
    return ledger.allocate();
  }

  @Operation
  public int busySlots() {
    return ledger.busySlots();
  }

  /** The production {@link HostSlotLedger}, set up through its own methods. */
  static Ledger real() {
    HostSlotLedger l = new HostSlotLedger(SLOTS, true);
    int[] slots = l.allocate(2); // [0, 1]
    for (int i = 0; i < 3; i++) {
      l.markBusy(slots, 0, 1);
    }
    return new Ledger() {
      @Override
      public void clearBusy(int slot) {
        l.clearBusy(new int[] {slot}, 0, 1);
      }

      @Override
      public String free(int slot) {
        try {
          l.free(new int[] {slot}, "test");
          return "ok";
        } catch (dev.hicachesync.sync.InvariantViolation e) {
          return e.getMessage().contains("still use") ? "busy" : "double free";
        }
      }

      @Override
      public String allocate() {
        return java.util.Arrays.toString(l.allocate(1));
      }

      @Override
      public int busySlots() {
        return l.busySlots();
      }
    };
  }
}
