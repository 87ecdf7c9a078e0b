package dev.hicachesync.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hicachesync.api.HiCacheConfig;
import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.api.HiCacheStorage;
import dev.hicachesync.tier.HostMemoryDeviceTier;
import dev.hicachesync.cluster.ClusterNode;
import dev.hicachesync.cluster.Worlds;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The worked example's scheduler with every rank on its own JGroups node (own channel, own TCP socket on
 * loopback: each collective crosses a socket as between processes) ends with the same trees, rank by rank, as
 * the same seed on the in-JVM fabric: the seeded request stream decides the run, not the network.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ServingLoopOverProcessGroupsTest {

  @Test
  void fourRanksOverJGroupsEndWithTheInJvmRunsTrees() throws Exception {
    HiCacheConfig cfg = HiCacheConfig.builder().pageSize(16).devicePages(48).hicacheRatio(1.5)
        .parallelism(1, 2, 2, 1).protocolVersion("merged").storagePrefetchPolicy("timeout")
        .writePolicy("write_through").prefetchThresholdTokens(32).loadBackThresholdTokens(16).ioBatchPages(4).build();
    long seed = 11;
    int steps = 150;
    ServingLoopExample.Report inJvm = new ServingLoopExample(cfg, steps, seed).run();

    List<Integer> ports = Worlds.freePorts(4);
    String cluster = Worlds.uniqueName();
    Topology grid = Topology.of(1, 2, 2, 1);
    HiCacheStorage storage = HiCacheStorage.memory(); // one L3, as the in-JVM run has
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<ClusterNode> nodes = new ArrayList<>();
    try {
      List<Future<ServingLoopExample.Scheduler>> ranks = new ArrayList<>();
      for (int r = 0; r < 4; r++) {
        int rank = r;
        ranks.add(pool.submit(() -> {
          ClusterNode node = ClusterNode.join(Worlds.config(4, rank, ports, Duration.ofSeconds(20),
              "version=merged topology=" + grid, cluster), Duration.ofSeconds(60));
          synchronized (nodes) {
            nodes.add(node);
          }
          HostMemoryDeviceTier kv = new HostMemoryDeviceTier(cfg.devicePages(), ServingLoopExample.LAYERS,
              ServingLoopExample.LAYER_BYTES);
          HiCacheRank cache = HiCacheRank.builder(cfg.forRank(rank)).groups(node.rankGroups(grid))
              .storage(storage).deviceTier(kv).build();
          ServingLoopExample.Scheduler s = new ServingLoopExample.Scheduler(cache, kv,
              ServingLoopExample.requests(seed, steps, cfg.pageSize()), cfg.pageSize());
          s.serve(steps);
          return s;
        }));
      }
      List<Long> digests = new ArrayList<>();
      List<Integer> finished = new ArrayList<>();
      for (Future<ServingLoopExample.Scheduler> f : ranks) {
        ServingLoopExample.Scheduler s = f.get(150, TimeUnit.SECONDS);
        digests.add(s.cache.treeDigest());
        finished.add(s.finished);
      }
      assertEquals(inJvm.treeDigests(), digests, "tree digests per rank, JGroups vs in-JVM (seed " + seed + ")");
      assertEquals(inJvm.finished(), finished, "finished requests per rank (seed " + seed + ")");
    } finally {
      pool.shutdownNow();
      synchronized (nodes) {
        nodes.forEach(ClusterNode::close);
      }
    }
  }
}
