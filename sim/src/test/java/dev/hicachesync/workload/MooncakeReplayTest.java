package dev.hicachesync.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.SimStats;
import dev.hicachesync.sim.Simulator;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Trace replays through the simulator, judged by the independent {@link PrefixReuseOracle}: unbounded
 * tiers reach its ratio exactly, bounded tiers stay below it and gain with host capacity.
 */
class MooncakeReplayTest {

  private static final ReplayTiming TIMING = ReplayTiming.DEFAULT;

  /** The first 300 requests of the conversation trace (a few seconds per replay). */
  private static List<MooncakeRequest> conversationSlice() {
    return Traces.resource(Traces.CONVERSATION_HEAD, 300);
  }

  private static SimResult replay(List<MooncakeRequest> trace, Topology t, ProtocolVersion v,
      StorageMode storage, WritePolicy wp, int devicePages, int hostPages) {
    SimConfig.Builder b = SimConfig.builder().topology(t).seed(7).version(v).storage(storage)
        .writePolicy(wp).devicePages(devicePages).hostPages(hostPages).maxRunning(64);
    return new Simulator(MooncakeReplay.configure(b, trace, t.dp(), TIMING, "test").build()).run();
  }

  /** Pages that hold every sequence of the trace at once: nothing is ever evicted. */
  private static int unbounded(List<MooncakeRequest> trace) {
    long pages = 1;
    for (MooncakeRequest r : trace) {
      pages += (r.inputLength() + r.outputLength()) / 64 + 1;
    }
    return (int) pages;
  }

  private static long hits(SimStats s) {
    return s.deviceHitTokens() + s.hostHitTokens() + s.storageHitTokens();
  }

  private static void assertUnboundedMatchesOracle(List<MooncakeRequest> trace, Topology t) {
    PrefixReuseOracle.Result oracle = PrefixReuseOracle.of(trace.iterator(), 64);
    int pages = unbounded(trace);
    SimResult r = replay(trace, t, ProtocolVersion.DEFAULT, StorageMode.MEMORY, WritePolicy.WRITE_THROUGH,
        pages, pages);
    assertNull(r.divergence(), () -> r.divergence().describe());
    assertTrue(r.ok(), () -> "not quiet after the drain: " + r.quiescence());
    assertEquals(trace.size(), r.stats().admitted());
    assertEquals(trace.size(), r.stats().finished());
    assertEquals(oracle.inputTokens(), r.stats().promptTokens());
    assertEquals(oracle.hitTokens(), hits(r.stats()), "hit tokens on " + t);
    // Block figures: a block is hit when the admitted prefix covers all of its tokens, in the replay
    // (TierHits, fed by the simulator's admission hook) as in the oracle.
    TierHits b = assertHitsAgreeWithStats(r.stats());
    assertEquals(oracle.inputBlocks(), b.inputBlocks(), "input blocks on " + t);
    assertEquals(oracle.hitBlocks(), b.inputBlocks() - b.blocks(TierHits.Tier.MISS), "hit blocks on " + t);
    assertEquals(oracle.blockRatio(), b.totalBlockRatio(), 0.0, "block ratio on " + t);
  }

  /** The admission hook's per-request figures sum to the simulator's own token counts, tier by tier. */
  private static TierHits assertHitsAgreeWithStats(SimStats s) {
    TierHits b = MooncakeWorkload.hitsOf(s.domainWorkloads());
    assertEquals(s.admitted(), b.requests(), "requests recorded by the hook");
    assertEquals(s.deviceHitTokens(), b.tokens(TierHits.Tier.L1), "L1 tokens");
    assertEquals(s.hostHitTokens(), b.tokens(TierHits.Tier.L2), "L2 tokens");
    assertEquals(s.storageHitTokens(), b.tokens(TierHits.Tier.L3), "L3 tokens");
    assertEquals(s.computedTokens(), b.tokens(TierHits.Tier.MISS), "missed tokens");
    return b;
  }

  @Test
  void unboundedTiersReachTheOraclesRatioExactlyOnTheTinySlice() {
    List<MooncakeRequest> tiny = Traces.resource(Traces.TINY);
    assertUnboundedMatchesOracle(tiny, Topology.of(1, 1, 1, 1));
    assertUnboundedMatchesOracle(tiny, Topology.of(1, 2, 2, 1));
  }

  @Test
  void unboundedTiersReachTheOraclesRatioExactlyOnARealSlice() {
    List<MooncakeRequest> slice = conversationSlice();
    assertUnboundedMatchesOracle(slice, Topology.of(1, 1, 1, 1));
    assertUnboundedMatchesOracle(slice, Topology.of(1, 2, 2, 1));
  }

  /**
   * Storage is off here: an unbounded L3 fed from L2 makes the total depend on L2's churn as well as
   * its size, which is not monotone (a smaller host backs up more often); L1 + L2 alone is.
   */
  @Test
  void boundedTiersStayBelowTheOracleAndGainWithHostCapacity() {
    List<MooncakeRequest> slice = conversationSlice();
    long ceiling = PrefixReuseOracle.of(slice.iterator(), 64).hitTokens();
    long ceilingBlocks = PrefixReuseOracle.of(slice.iterator(), 64).hitBlocks();
    for (WritePolicy wp : WritePolicy.values()) {
      long previous = -1;
      for (int ratio : new int[] {0, 1, 2, 4, 8}) {
        SimResult r = replay(slice, Topology.of(1, 1, 1, 1), ProtocolVersion.DEFAULT, StorageMode.OFF, wp,
            4096, 4096 * ratio);
        assertTrue(r.ok(), () -> wp + ": " + r.divergence() + " " + r.quiescence());
        assertEquals(slice.size(), r.stats().admitted(), wp + " ratio " + ratio);
        long hit = hits(r.stats());
        TierHits b = assertHitsAgreeWithStats(r.stats());
        assertTrue(b.inputBlocks() - b.blocks(TierHits.Tier.MISS) <= ceilingBlocks, wp + " ratio " + ratio);
        if (ratio == 0) {
          assertEquals(0, b.blocks(TierHits.Tier.L2), wp + ": no host tier, no block loaded back");
        }
        assertTrue(hit <= ceiling, wp + " ratio " + ratio + ": " + hit + " > " + ceiling);
        assertTrue(hit >= previous, wp + " ratio " + ratio + ": " + hit + " < " + previous);
        previous = hit;
      }
    }
  }

  /** Two replicas: each domain's first rank reports its own requests, once; together they cover the trace. */
  @Test
  void blockHitsCountEachReplicaOnce() {
    List<MooncakeRequest> tiny = Traces.resource(Traces.TINY);
    int pages = unbounded(tiny);
    SimResult r = replay(tiny, Topology.of(2, 1, 2, 1), ProtocolVersion.DEFAULT, StorageMode.MEMORY,
        WritePolicy.WRITE_THROUGH, pages, pages);
    assertTrue(r.ok(), () -> r.divergence() + " " + r.quiescence());
    assertEquals(2, r.stats().domainWorkloads().size());
    TierHits b = assertHitsAgreeWithStats(r.stats());
    assertEquals(PrefixReuseOracle.of(tiny.iterator(), 64).inputBlocks(), b.inputBlocks());
  }

  @Test
  void legacyVersionDivergesOnACpTopology() {
    List<MooncakeRequest> slice = conversationSlice();
    SimResult r = replay(slice, Topology.of(1, 2, 1, 1), ProtocolVersion.parse("pre20460"),
        StorageMode.MEMORY, WritePolicy.WRITE_THROUGH, 4096, 8192);
    assertNotNull(r.divergence(), "pre20460 on CP must diverge");
    assertEquals(Invariant.AckAgreement, r.divergence().invariant());
  }
}
