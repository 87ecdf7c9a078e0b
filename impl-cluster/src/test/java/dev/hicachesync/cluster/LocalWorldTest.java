package dev.hicachesync.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Rank processes started on loopback: they report, and a killed one ends the world with nothing left running. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LocalWorldTest {

  @Test
  void twoProbeProcessesMeasureAndExitCleanly() throws Exception {
    AllReduceBench.Row row = AllReduceBench.measure(2, 200, 50);
    assertTrue(row.p50() > 0 && row.p99() >= row.p50() && row.worstP99() >= row.p99(), row.toString());
  }

  @Test
  void aKilledRankEndsTheWorldWithEverySurvivorNamingItAndNothingLeftRunning() throws Exception {
    int world = 3;
    try (LocalWorld w = LocalWorld.start(world, ClusterPeerMain.class.getName(), List.of("-Xmx128m"),
        (rank, ports, cluster) -> {
          List<String> a = new ArrayList<>(List.of(String.valueOf(world), String.valueOf(rank), "3000", cluster, "v"));
          ports.forEach(p -> a.add(String.valueOf(p)));
          return a;
        })) {
      Process victim = w.processes().get(1);
      for (int r = 0; r < world; r++) { // ClusterPeerMain prints "joined" once its world has assembled
        assertTrue(w.awaitOutput(r, "joined", Duration.ofSeconds(60)), "rank " + r + " never joined");
      }
      victim.destroyForcibly();
      List<LocalWorld.RankExit> exits = w.await(Duration.ofSeconds(60), Duration.ofSeconds(10));
      for (LocalWorld.RankExit e : exits) {
        if (e.rank() == 1) {
          continue;
        }
        assertEquals(1, e.exitCode(), "rank " + e.rank() + " output " + e.output());
        assertTrue(e.output().stream().anyMatch(l -> l.contains("rank(s) [1] left the world")), e.output().toString());
        assertFalse(e.killed(), "rank " + e.rank() + " had to be killed: it did not exit on its own");
      }
      for (Process p : w.processes()) {
        assertFalse(p.isAlive());
      }
    }
  }
}
