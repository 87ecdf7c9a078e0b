package dev.hicachesync.sim.bugs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import org.junit.jupiter.api.Test;

/** B6, PP with L2 (sgl-project/sglang#22607, fixed by #27285): pipeline stages decide ack counts alone. */
class B6PipelineL2Test {

  /**
   * Without forwarding, each stage pops the acks ready on its own ranks; stage 1's copies finish at other
   * times than stage 0's, so the stages' trees part (ranks 0 and 2 of cp=1, tp=2, pp=2). With stage 0
   * deciding and forwarding the counts, stage 1 pops exactly that many and the stages agree.
   */
  @Test
  void stagesDecidingAloneDivergeAndForwardingHolds() {
    Topology t = Topology.of(1, 1, 2, 2);
    SimResult legacy = BugRuns.run(BugRuns.base(7).topology(t).version(ProtocolVersion.PRE20460));
    assertNotNull(legacy.divergence());
    assertEquals(Invariant.AckAgreement, legacy.divergence().invariant(), legacy.divergence()::describe);
    assertEquals(2, legacy.divergence().rankB(), "stage 1 parts from stage 0");
    SimResult fixed = BugRuns.run(BugRuns.base(7).topology(t).version(ProtocolVersion.MERGED));
    assertNull(fixed.divergence(), () -> fixed.divergence().describe());
  }
}
