package dev.hicachesync.sim.bugs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sync.Invariant;
import org.junit.jupiter.api.Test;

/** B10, different numbers of prefetch checks (sgl-project/sglang#30760). */
class B10AdmissionExitTest {

  /**
   * R0's admission loop breaks on a rank-local "batch full" condition; R1 goes on to the next request's
   * {@code check_prefetch_progress} and enters S4 while R0 is already in the next step's RECV: a mismatch.
   */
  @Test
  void rankLocalExitIsAMismatch() {
    SimResult r = BugRuns.withFault(Fault.EARLY_ADMISSION_EXIT, 7);
    assertNotNull(r.divergence());
    assertEquals(Invariant.CollectiveMatching, r.divergence().invariant(), r.divergence()::describe);
  }
}
