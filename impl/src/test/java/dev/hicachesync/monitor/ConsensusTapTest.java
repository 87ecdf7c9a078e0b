package dev.hicachesync.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.api.HiCacheConfig;
import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.api.InJvmCluster;
import dev.hicachesync.api.PrefixMatch;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A rank's hook queues each decorated call's {@code called} event before the real call and its {@code returns}
 * event, with the call's real result, after it; the pass-through hook queues nothing and returns the same.
 */
class ConsensusTapTest {

  @Test
  void theDecoratedCallsQueueTheirEventsAroundTheRealCall() {
    HiCacheConfig cfg = HiCacheConfig.builder().pageSize(16).devicePages(8).parallelism(1, 1, 1, 1).build();
    HiCacheRank rank = HiCacheRank.builder(cfg).groups(InJvmCluster.of(cfg, Duration.ofMillis(300)).groups(0)).build();
    ConsensusMonitor monitor = new ConsensusMonitor(2); // rank 1 stays silent: rank 0's events stay pending
    ConsensusTap tap = monitor.rank(0);
    int[] prompt = new int[32];
    rank.runPrefetchThread();
    tap.releaseAbortedRequest(rank, "r2", 0); // the step's order: aborts, event check, admission
    rank.checkHicacheEvents();
    assertTrue(tap.checkPrefetchProgress(rank, "r1", 0), "no prefetch: admissible at once");
    PrefixMatch m = tap.matchPrefix(rank, "r1", prompt, 0);
    assertEquals(0, m.deviceTokens());
    assertEquals(List.of(
        ConsensusEvent.called(ConsensusMonitor.RELEASE_ABORTED_REQUEST, "r2"),
        ConsensusEvent.returns(ConsensusMonitor.RELEASE_ABORTED_REQUEST, "r2", ConsensusEvent.NO_CHECK),
        ConsensusEvent.called(ConsensusMonitor.CHECK_PREFETCH_PROGRESS, "r1"),
        ConsensusEvent.returns(ConsensusMonitor.CHECK_PREFETCH_PROGRESS, "r1", "True"),
        ConsensusEvent.called(ConsensusMonitor.MATCH_PREFIX, "r1"),
        ConsensusEvent.returns(ConsensusMonitor.MATCH_PREFIX, "r1", "device 0 host 0")),
        monitor.pending().get(0));
    assertSame(ConsensusTap.UNMONITORED, ConsensusTap.of(null, 0));
    assertEquals(0, ConsensusTap.UNMONITORED.matchPrefix(rank, "r3", prompt, 2).deviceTokens());
    assertEquals(6, monitor.pending().get(0).size(), "the pass-through hook queues nothing");
  }
}
