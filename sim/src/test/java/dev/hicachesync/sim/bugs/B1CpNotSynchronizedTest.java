package dev.hicachesync.sim.bugs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * B1, CP ranks not synchronized (sgl-project/sglang#20460): with NSA CP every attn_tp group is a singleton,
 * the legacy {@code if world_size > 1} guard is false everywhere, and no HiCache collective runs across CP.
 */
class B1CpNotSynchronizedTest {

  /**
   * Both CP ranks insert a node and back it up; R0's (or R1's) copy completes first and that rank pops the
   * write ack alone, unlocking the node there only — the ranks' ack counts part at once (AckAgreement),
   * and their lock counts with them (TreeAgreement). The fixed versions hold on the same schedule.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 7, 42})
  void legacyVersionDivergesAndTheFixHolds(long seed) {
    SimResult legacy = BugRuns.run(BugRuns.base(seed).topology(Topology.of(1, 2, 1, 1))
        .version(ProtocolVersion.PRE20460));
    assertNotNull(legacy.divergence(), "Failed on seed " + seed + ": pre20460 must diverge under CP");
    assertEquals(Invariant.AckAgreement, legacy.divergence().invariant(), legacy.divergence()::describe);
    for (ProtocolVersion fixed : new ProtocolVersion[] {ProtocolVersion.POST20460, ProtocolVersion.MERGED}) {
      SimResult ok = BugRuns.run(BugRuns.base(seed).topology(Topology.of(1, 2, 1, 1)).version(fixed));
      assertNull(ok.divergence(), () -> "Failed on seed " + seed + ": " + ok.divergence().describe());
    }
  }
}
