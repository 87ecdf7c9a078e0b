package dev.hicachesync.controller;

import org.jetbrains.lincheck.datastructures.Operation;

/**
 * Operation catalogue for a prefetch's progress hand-off between the I/O thread and the scheduler
 * (INV-7, {@code HostSlotSafety}; B7's fix): the I/O thread lands one-page read batches and issues the
 * next unless stopped; the scheduler stops the prefetch at page 0 (S6, an aborted request: every slot
 * goes back; S5 does the same from the page count the sync domain agreed on, which the reader may already
 * have passed) and pops the ready release entries at S3, freeing their slots through the host-slot
 * ledger, which rejects a slot a read still writes.
 *
 * <p>The starting point: S7 said 3 pages of the 4 slots, the outcome was deposited and the first batch is
 * in flight. Checked against {@link PrefetchProgressSpec}. Subclasses bind it to an implementation.
 */
public abstract class AbstractPrefetchProgressLincheckTest {
  /** The component under test. */
  interface Progress {
    /** The I/O thread: the batch in flight landed; "next", "stopped", or "idle" when none was in flight. */
    String batchLanded();

    /** The scheduler stops the prefetch at page 0 (S6); false if it was stopped already. */
    boolean abort();

    /** The scheduler pops the ready release entries (S3); "freed k" or the violated invariant. */
    String popReleased();
  }

  private final Progress progress;

  AbstractPrefetchProgressLincheckTest(Progress progress) {
    this.progress = progress;
  }

  @Operation(nonParallelGroup = "io")
  public String batchLanded() {
    return progress.batchLanded();
  }

  @Operation(nonParallelGroup = "scheduler")
  public boolean abort() {
    return progress.abort();
  }

  @Operation(nonParallelGroup = "scheduler")
  public String popReleased() {
    return progress.popReleased();
  }
}
