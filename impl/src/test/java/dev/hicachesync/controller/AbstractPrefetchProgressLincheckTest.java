package dev.hicachesync.controller;

import dev.hicachesync.storage.PageKey;
import org.jetbrains.lincheck.datastructures.Operation;

/**
 * Operation catalogue for a prefetch's progress counter: the I/O thread lands read batches and increments
 * {@code completedPages}; the scheduler terminates (S5: reads the count, sets the release point) and the
 * unread tail of host slots is queued for release and marked ready only once the reader stopped (INV-7,
 * {@code HostSlotSafety}; B7's fix).
 *
 * <p>Both sides run the controller's own code on a real {@link PrefetchOperation}: the I/O side is {@code
 * PrefetchThreadStep.onBatch} for a successful one-page batch (its body is private, so its four field
 * updates are restated here), the scheduler side is {@code CheckPrefetchProgress}'s termination with a
 * single rank, and they call the real {@code CacheController.releaseTail} / {@code updateTail}. Subclasses choose whether
 * the two sides exclude each other.
 */
public abstract class AbstractPrefetchProgressLincheckTest {
  final CacheController c = ControllerFixtures.controller();
  final PrefetchOperation op;

  AbstractPrefetchProgressLincheckTest() {
    op = new PrefetchOperation("r0", c.tree().root(), new int[4 * 64], new PageKey[4], new int[] {0, 1, 2, 3}, 0);
    op.hitPages = 3; // S7 said 3 pages; slot 3 went back at deposit
    op.deposited = true;
    op.state = PrefetchState.READING;
    op.reading = true; // the first batch is in flight
  }

  /** Runs {@code body} as the implementation would (with or without mutual exclusion). */
  abstract <T> T side(java.util.function.Supplier<T> body);

  /** The I/O thread: one batch landed; returns whether it issued the next, stopped, or had nothing in flight. */
  @Operation(nonParallelGroup = "io")
  public String batchLanded() {
    return side(() -> {
      if (!op.reading) {
        return "idle";
      }
      int from = op.completedPages;
      op.reading = false;
      op.completedPages = from + 1;
      if (!op.terminatedByScheduler() && op.completedPages < op.hitPages) {
        op.reading = true; // issueBatch
        return "next";
      }
      c.updateTail(op);
      return "stopped";
    });
  }

  /** The scheduler terminates the prefetch (S5 with one rank): returns the pages it will insert. */
  @Operation(nonParallelGroup = "scheduler")
  public int terminate() {
    return side(() -> {
      if (op.terminatedByScheduler()) {
        return -1;
      }
      int pages = op.completedPages;
      op.releaseFrom = pages;
      c.releaseTail(op);
      return pages;
    });
  }

  /**
   * The release entries S3 may pop now (ready at the head): the tail becomes ready only once the reader
   * has stopped, so a positive answer while a batch is in flight is the INV-7 race.
   */
  @Operation(nonParallelGroup = "scheduler")
  public String released() {
    return side(() ->
        c.hostReleaseQueue.leadingReady() + "/" + c.hostReleaseQueue.size() + (op.reading ? " reading" : ""));
  }
}
