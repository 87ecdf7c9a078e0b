package dev.hicachesync.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Test worlds of rank "processes" on loopback: each a {@link ClusterNode} with its own channel and port. */
public final class Worlds {
  static final String HOST = "127.0.0.1";

  static {
    ClusterNode.quietJGroupsLogging();
  }

  private Worlds() {}

  /** Returns {@code n} ports that were free on loopback a moment ago. */
  public static List<Integer> freePorts(int n) {
    return LocalWorld.freePorts(n);
  }

  public static ClusterConfig config(int world, int rank, List<Integer> ports, Duration timeout, String identity, String name) {
    return new ClusterConfig(world, rank, HOST, ports, timeout, identity, name);
  }

  /** Joins ranks {@code ranks} of a world concurrently (each join waits for the whole world). */
  static List<ClusterNode> join(List<ClusterConfig> configs) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(configs.size());
    try {
      List<Future<ClusterNode>> joins = new ArrayList<>();
      for (ClusterConfig c : configs) {
        joins.add(pool.submit(() -> ClusterNode.join(c, Duration.ofSeconds(30))));
      }
      List<ClusterNode> nodes = new ArrayList<>();
      for (Future<ClusterNode> f : joins) {
        nodes.add(f.get());
      }
      return nodes;
    } finally {
      pool.shutdown();
    }
  }

  public static String uniqueName() {
    return "hicache-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
  }
}
