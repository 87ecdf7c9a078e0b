package dev.hicachesync.sim.bugs;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/**
 * The spec's knobs that are simulator faults ({@code simulate --fault}), each caught by the invariant the spec's
 * knob model breaks, in the simulator's own seeded runs (the replays drive them from counterexamples).
 */
class KnobFaultsTest {

  /**
   * local_clock: the odd ranks evict their most recently used leaf first; the trees part at the first eviction
   * that has more than one leaf to choose from (pools of 16 and 32 pages: smaller ones rarely hold two).
   */
  @Test
  void aRankThatEvictsNewestFirstBreaksTreeAgreement() {
    SimResult r = BugRuns.run(BugRuns.base(3).topology(Topology.of(1, 2, 1, 1)).devicePages(16).hostPages(32)
        .faults(EnumSet.of(Fault.LOCAL_LRU_CLOCK)));
    assertNotNull(r.divergence(), "no divergence");
    assertTrue(r.divergence().invariants().contains(Invariant.TreeAgreement), r.divergence()::describe);
  }

  /**
   * local_order: the odd ranks' schedule policies take the waiting queue newest first; with several requests
   * waiting the ranks admit different ones (the same run without the fault holds: the first of {@link
   * #theSameRunsWithoutTheFaultsHold}).
   */
  @Test
  void aRankThatAdmitsTheNewestFirstBreaksTreeAgreement() {
    SimResult r = BugRuns.run(BugRuns.base(3).topology(Topology.of(1, 2, 1, 1)).devicePages(16).hostPages(32)
        .faults(EnumSet.of(Fault.LOCAL_QUEUE_ORDER)));
    assertNotNull(r.divergence(), "no divergence");
    assertTrue(r.divergence().invariants().contains(Invariant.TreeAgreement), r.divergence()::describe);
  }

  /** uneven_capacity: rank 0's host pool is one page larger; a host allocation fails on its peers only. */
  @Test
  void aLargerHostPoolOnOneRankBreaksAllocAgreement() {
    SimResult r = BugRuns.run(BugRuns.base(5).topology(Topology.of(1, 2, 1, 1)).devicePages(8).hostPages(8)
        .faults(EnumSet.of(Fault.LARGER_HOST_POOL_ON_RANK0)));
    assertNotNull(r.divergence(), "no divergence");
    assertTrue(r.divergence().invariants().contains(Invariant.AllocAgreement), r.divergence()::describe);
  }

  /** local_payload: S3's vector length follows the local storage queues; the ranks' calls stop matching. */
  @Test
  void aRankLocalS3PayloadBreaksCollectiveMatching() {
    SimResult r = BugRuns.run(BugRuns.base(11).topology(Topology.of(1, 2, 1, 1)).version(ProtocolVersion.POST20460)
        .storage(StorageMode.MEMORY).faults(EnumSet.of(Fault.LOCAL_S3_PAYLOAD)));
    assertNotNull(r.divergence(), "no divergence");
    assertTrue(r.divergence().invariants().contains(Invariant.CollectiveMatching), r.divergence()::describe);
  }

  /**
   * pf_thread_dies: rank 0's prefetch thread ends before its first pass; rank 1's S7 for the first prefetch then
   * waits for a peer that never joins, and the collective's timeout names it (the spec's PrefetchThreadNeverStuck).
   */
  @Test
  void aPrefetchThreadThatDiesLeavesItsPeersS7ToTimeOut() {
    SimResult r = BugRuns.run(BugRuns.base(11).topology(Topology.of(1, 2, 1, 1)).version(ProtocolVersion.POST20460)
        .storage(StorageMode.MEMORY).collectiveTimeout(Duration.ofSeconds(1))
        .faults(EnumSet.of(Fault.PREFETCH_THREAD_DIES)));
    assertNotNull(r.divergence(), "no divergence");
    assertTrue(r.divergence().invariants().contains(Invariant.CollectiveMatching), r.divergence()::describe);
  }

  /** Without the faults, the same runs hold: the divergences above are the faults'. */
  @Test
  void theSameRunsWithoutTheFaultsHold() {
    assertNull(BugRuns.run(BugRuns.base(3).topology(Topology.of(1, 2, 1, 1)).devicePages(16).hostPages(32))
        .divergence());
    assertNull(BugRuns.run(BugRuns.base(5).topology(Topology.of(1, 2, 1, 1)).devicePages(8).hostPages(8))
        .divergence());
    assertNull(BugRuns.run(BugRuns.base(11).topology(Topology.of(1, 2, 1, 1)).version(ProtocolVersion.POST20460)
        .storage(StorageMode.MEMORY)).divergence());
  }
}
