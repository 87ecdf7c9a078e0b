package dev.hicachesync.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.SimStats;
import dev.hicachesync.sim.Simulator;
import dev.hicachesync.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A bounded L3 on a real trace slice: it never beats the unbounded store, a shard big enough never to
 * evict replays the unbounded store exactly, and a small one loses L3 hits.
 *
 * <p>Why these capacities: L1 4096 and L2 2048 pages per rank keep the 300-request slice spilling into
 * L3, where the unbounded store serves about 0.3% of the input tokens; a shard of 256 pages holds less
 * than one long request, one of 8192 pages a few recent ones.
 */
class BoundedStorageReplayTest {

  private static SimResult replay(List<MooncakeRequest> trace, long storagePages) {
    SimConfig.Builder b = SimConfig.builder().topology(Topology.of(1, 2, 2, 1)).seed(7)
        .devicePages(4096).hostPages(2048).maxRunning(64).storagePages(storagePages);
    SimResult r = new Simulator(MooncakeReplay.configure(b, trace, 1, ReplayTiming.DEFAULT, "slice").build())
        .run();
    assertTrue(r.ok(), () -> "L3 " + storagePages + ": " + r.divergence() + " " + r.quiescence());
    assertEquals(trace.size(), r.stats().admitted());
    return r;
  }

  private static long hits(SimStats s) {
    return s.deviceHitTokens() + s.hostHitTokens() + s.storageHitTokens();
  }

  @Test
  void boundedL3NeverBeatsUnboundedAndABigEnoughOneIsUnbounded() {
    List<MooncakeRequest> slice = Traces.resource(Traces.CONVERSATION_HEAD, 300);
    SimStats unbounded = replay(slice, SimConfig.UNBOUNDED).stats();
    assertTrue(unbounded.storageHitTokens() > 0, "the slice must reach L3 for this test to mean anything");

    SimResult big = replay(slice, 1_000_000);
    assertEquals(0, big.stats().storageEvictedPages());
    SimStats b = big.stats();
    assertEquals(List.of(unbounded.deviceHitTokens(), unbounded.hostHitTokens(), unbounded.storageHitTokens(),
            unbounded.storageReadPages(), unbounded.storageWritePages(), unbounded.prefetchesRevoked(),
            unbounded.prefetchesCompleted()),
        List.of(b.deviceHitTokens(), b.hostHitTokens(), b.storageHitTokens(), b.storageReadPages(),
            b.storageWritePages(), b.prefetchesRevoked(), b.prefetchesCompleted()),
        "a shard that never evicts is the unbounded store");

    long previous = Long.MAX_VALUE;
    for (long pages : new long[] {8192, 256}) {
      SimStats s = replay(slice, pages).stats();
      assertTrue(s.storageEvictedPages() > 0, pages + " pages must evict");
      assertTrue(hits(s) <= hits(unbounded), pages + " pages: " + hits(s) + " > " + hits(unbounded));
      assertTrue(s.storageHitTokens() < unbounded.storageHitTokens(),
          pages + " pages: L3 hits " + s.storageHitTokens() + " not below " + unbounded.storageHitTokens());
      assertTrue(hits(s) <= previous, pages + " pages: more hits than a larger shard");
      previous = hits(s);
    }
  }
}
