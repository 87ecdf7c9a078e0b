package dev.hicachesync.sim.bugs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sync.Invariant;
import org.junit.jupiter.api.Test;

/**
 * B7's host-slot half (sgl-project/sglang#27010): the unread tail of a stopped prefetch's host slots must
 * be released only after the I/O thread's final ack.
 */
class B7EarlyTailReleaseTest {

  /**
   * A prefetch times out while a storage read batch is still landing in its slots; handing the tail back
   * at once lets S3 free slots the read is still writing — caught as HostSlotSafety the moment it happens.
   */
  @Test
  void freeingSlotsUnderAReadIsCaught() {
    SimResult r = BugRuns.withFault(Fault.EARLY_TAIL_RELEASE, 7);
    assertNotNull(r.divergence());
    assertEquals(Invariant.HostSlotSafety, r.divergence().invariant(), r.divergence()::describe);
  }
}
