package dev.hicachesync.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.monitor.ConsensusMonitor;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The simulator's admission goes through the consensus monitor's hooks when the run has one
 * ({@link SimConfig#consensusMonitor}): a correct run makes every rank queue the same decorated calls, so the
 * monitor compares them all and raises nothing; a monitor of another size than the run is refused in one line.
 */
class ConsensusMonitorRunTest {

  @Test
  void aCorrectRunQueuesTheSameDecoratedCallsOnEveryRankAndRaisesNothing() {
    ConsensusMonitor monitor = new ConsensusMonitor(4);
    SimResult r = new Simulator(SimConfig.builder().topology(Topology.of(1, 2, 2, 1)).steps(200).seed(3)
        .prefetchPolicy(PrefetchPolicy.TIMEOUT).collectiveTimeout(Duration.ofSeconds(5)).consensusMonitor(monitor)
        .build()).run();
    assertNull(r.divergence(), () -> r.divergence().describe());
    assertNull(monitor.alarm(), () -> monitor.alarm().toString());
    long perRank = r.stats().admitted(); // counted once per sync domain: this run has one
    assertTrue(perRank > 20, "admissions per rank: " + perRank);
    // check_prefetch_progress and match_prefix, called and returns, for each admitted request at least
    assertTrue(monitor.compared() >= 4 * perRank, monitor.compared() + " events compared for " + perRank
        + " admissions per rank");
    int uncompared = monitor.pending().stream().mapToInt(java.util.List::size).min().orElse(-1);
    assertEquals(0, uncompared, "every position some rank has not reached yet is all that is left");
  }

  @Test
  void aMonitorOfAnotherDomainIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SimConfig.builder()
        .topology(Topology.of(1, 2, 2, 1)).consensusMonitor(new ConsensusMonitor(2)).build());
    assertEquals("a consensus monitor watches one sync domain: it has 2 ranks, the run 4", e.getMessage());
  }
}
