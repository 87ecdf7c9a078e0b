package dev.hicachesync.controller;

import dev.hicachesync.storage.PageKey;
import dev.hicachesync.sync.InvariantViolation;
import dev.hicachesync.testing.LincheckRuns;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link AbstractPrefetchProgressLincheckTest} on the production classes, with no lock of its own: the
 * I/O side is {@code PrefetchThreadStep.landBatch} (what the I/O thread runs when a batch lands), the
 * scheduler side is {@code ReleaseAbortedRequest}'s stop ({@link PrefetchOperation#stopAt} and {@code
 * Prefetches.releaseTail}) and S3's pop of the host-release queue through the {@link HostSlotLedger}.
 * The exclusion that makes it linearizable is {@link PrefetchOperation}'s own monitor;
 * {@link UnsyncedPrefetchProgressLincheckTest} is the same hand-off without it.
 */
@Tag("lincheck")
public class PrefetchProgressLincheckTest extends AbstractPrefetchProgressLincheckTest {
  public PrefetchProgressLincheckTest() {
    super(new Real());
  }

  @Test
  void modelCheckingTest() {
    LincheckRuns.modelChecking(2, 2, PrefetchProgressSpec.class).actorsBefore(0).check(getClass());
  }

  @Test
  void stressTest() {
    LincheckRuns.stress(2, 2, PrefetchProgressSpec.class).actorsBefore(0).check(getClass());
  }

  /** A real controller and operation, brought by production calls to: hit 3, first batch in flight. */
  static final class Real implements Progress {
    private final RankState s = ControllerFixtures.controller().state(); // I/O batches of 1 page
    private final PrefetchOperation op;
    /** The batch in flight starts here; written by the I/O side only. */
    private int inFlight;

    Real() {
      int[] slots = s.pools().host().allocate(4);
      op = new PrefetchOperation("r0", s.tree().root(), new int[4 * 64], new PageKey[4], slots, 0);
      op.hitSynced(3); // S7
      if (!op.beginReading()) { // the deposit
        throw new IllegalStateException("nothing to read");
      }
      s.pools().host().markBusy(op.hostPages(), 0, PrefetchThreadStep.batchEnd(s, op, 0));
    }

    @Override
    public String batchLanded() {
      if (!op.reading()) {
        return "idle";
      }
      int from = inFlight;
      int next = PrefetchThreadStep.landBatch(s, op, from, PrefetchThreadStep.batchEnd(s, op, from), true);
      if (next < 0) {
        return "stopped";
      }
      inFlight = next;
      return "next";
    }

    @Override
    public boolean abort() {
      if (op.terminatedByScheduler()) {
        return false;
      }
      op.stopAt(0); // as ReleaseAbortedRequest, after S6's barrier
      s.prefetches().releaseTail(op);
      return true;
    }

    @Override
    public String popReleased() {
      int n = s.queues().releasesReady();
      try {
        for (int i = 0; i < n; i++) {
          s.queues().freeNextRelease("S3 host release");
        }
      } catch (InvariantViolation e) {
        return e.invariant().name();
      }
      return "freed " + n;
    }
  }
}
