package dev.hicachesync.sim.bugs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sync.Invariant;
import org.junit.jupiter.api.Test;

/**
 * B3, early return before the collective (sgl-project/sglang#10127, fixed by #26923 and #27489):
 * {@code writing_check} returned without its all_reduce when nothing was ready on this rank.
 */
class B3EarlyReturnTest {

  /**
   * A rank whose copy has not completed returns early and goes on to its next collective (a prefetch check
   * or the next step's request broadcast) while the others wait in S123: the k-th calls of the group no
   * longer match — the deadlock of the bug, reported as a CollectiveMatching mismatch naming both sites.
   */
  @Test
  void skippedCollectiveIsAMismatch() {
    SimResult r = BugRuns.withFault(Fault.SKIP_IDLE_WRITE_CHECK, 7);
    assertNotNull(r.divergence());
    assertEquals(Invariant.CollectiveMatching, r.divergence().invariant(), r.divergence()::describe);
  }
}
