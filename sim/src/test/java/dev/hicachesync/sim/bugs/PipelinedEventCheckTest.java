package dev.hicachesync.sim.bugs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Version {@code pipelined} (proposal #39903): S123 issued asynchronously and consumed at the next step. Its seeded
 * runs hold with storage on CP and TP; bug P1 (fault {@code pipelined_counts_before_consuming}: the counts for the
 * next MIN read before the previous result is consumed) pops an entry twice ({@code HostSlotSafety}'s HP5), and
 * knob {@code async_rank_off} (rank 0 never issues its call) leaves its peers' wait on the handle to the collective's
 * timeout ({@code CollectiveMatching}), as the models {@code pipelined_p1_cp2} and {@code knob_async_rank_off} say.
 */
class PipelinedEventCheckTest {

  private static dev.hicachesync.sim.SimConfig.Builder pipelined(long seed, Topology t) {
    return BugRuns.base(seed).steps(400).topology(t).version(ProtocolVersion.PIPELINED).storage(StorageMode.MEMORY)
        .devicePages(16).hostPages(24);
  }

  @Test
  void pipelinedRunsHold() {
    assertNull(BugRuns.run(pipelined(3, Topology.of(1, 2, 1, 1))).divergence());
    assertNull(BugRuns.run(pipelined(5, Topology.of(1, 2, 2, 1))).divergence());
    assertNull(BugRuns.run(pipelined(7, Topology.of(1, 1, 1, 1))).divergence()); // a singleton: no collective
  }

  @Test
  void countsReadBeforeConsumingPopAnEntryTwice() {
    SimResult r = BugRuns.run(pipelined(3, Topology.of(1, 2, 1, 1))
        .faults(EnumSet.of(Fault.PIPELINED_COUNTS_BEFORE_CONSUMING)));
    assertNotNull(r.divergence(), "no divergence");
    assertEquals(Invariant.HostSlotSafety, r.divergence().invariant(), r.divergence()::describe);
  }

  @Test
  void aRankThatNeverIssuesLeavesItsPeersWaitToTimeOut() {
    SimResult r = BugRuns.run(pipelined(3, Topology.of(1, 2, 1, 1)).collectiveTimeout(Duration.ofSeconds(1))
        .faults(EnumSet.of(Fault.ASYNC_RANK_OFF)));
    assertNotNull(r.divergence(), "no divergence");
    // the peers' wait on the handle ends at the timeout, and nothing else diverged first (the ranks agree up to it)
    assertEquals(List.of(Invariant.CollectiveMatching), r.divergence().invariants(), r.divergence()::describe);
  }

  @Test
  void thePipelinedFaultsNeedVersionPipelinedAndOneStage() {
    assertThrows(IllegalArgumentException.class, () -> BugRuns.base(1).version(ProtocolVersion.MERGED)
        .faults(EnumSet.of(Fault.ASYNC_RANK_OFF)).build());
    assertThrows(IllegalArgumentException.class, () -> BugRuns.base(1).version(ProtocolVersion.PIPELINED)
        .topology(Topology.of(1, 1, 1, 2)).build());
  }
}
