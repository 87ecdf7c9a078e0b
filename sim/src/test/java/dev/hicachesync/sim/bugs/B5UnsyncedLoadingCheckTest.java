package dev.hicachesync.sim.bugs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sync.Invariant;
import org.junit.jupiter.api.Test;

/** B5, unsynchronized {@code loading_check}: load acks popped by each rank's own count. */
class B5UnsyncedLoadingCheckTest {

  /**
   * R0's load-back event completes first; R0 pops the load ack and unlocks the loaded path while R1 still
   * holds it, so an admission may evict it on R0 only. The simulator sees the ack counts part at S123.
   */
  @Test
  void localLoadCountsPart() {
    SimResult r = BugRuns.withFault(Fault.UNSYNCED_LOADING_CHECK, 7);
    assertNotNull(r.divergence());
    assertEquals(Invariant.AckAgreement, r.divergence().invariant(), r.divergence()::describe);
    assertTrue(r.divergence().invariants().contains(Invariant.TreeAgreement));
  }
}
