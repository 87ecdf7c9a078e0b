package dev.hicachesync.controller;

import dev.hicachesync.testing.LincheckRuns;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Broken twin of the prefetch progress hand-off: the logic production once had, where the I/O
 * thread cleared {@code reading}, then decided whether to go on and set it again, with no exclusion
 * against the scheduler. The race: the scheduler stops the prefetch in the instant between one batch
 * landing and the next being issued, sees no read in flight, marks the tail ready, and S3 frees slots the
 * next read writes into (INV-7, {@code HostSlotSafety}). Must be rejected against {@link
 * PrefetchProgressSpec}.
 */
@Tag("lincheck")
public class UnsyncedPrefetchProgressLincheckTest extends AbstractPrefetchProgressLincheckTest {
  public UnsyncedPrefetchProgressLincheckTest() {
    super(new Unsynced());
  }

  @Test
  void modelCheckingRejects() {
    LincheckRuns.assertRejected(
        () -> LincheckRuns.modelCheckingBroken(2, 2, PrefetchProgressSpec.class).actorsBefore(0).check(getClass()),
        null);
  }

  /** Plain fields, the pre-fix order of updates (the bug: two steps where one atomic decision is needed). */
  static final class Unsynced implements Progress {
    private static final int HIT = 3;
    private int completed;
    private boolean reading = true;
    private int releaseFrom = -1;
    private boolean tailQueued;
    private boolean tailReady;
    private boolean tailFreed;
    /** The page a read is writing into now, -1 if none. */
    private int busyPage = 0;

    @Override
    public String batchLanded() {
      if (!reading) {
        return "idle";
      }
      busyPage = -1;
      reading = false;
      completed++;
      if (releaseFrom < 0 && completed < HIT) {
        reading = true; // issueBatch, a step after the flag was cleared
        busyPage = completed;
        return "next";
      }
      if (tailQueued) {
        tailReady = true;
      }
      return "stopped";
    }

    @Override
    public boolean abort() {
      if (releaseFrom >= 0) {
        return false;
      }
      releaseFrom = 0;
      tailQueued = true;
      if (!reading) {
        tailReady = true;
      }
      return true;
    }

    @Override
    public String popReleased() {
      if (!tailReady || tailFreed) {
        return "freed 0";
      }
      tailFreed = true;
      return busyPage >= releaseFrom && busyPage >= 0 ? "HostSlotSafety" : "freed 1";
    }
  }
}
