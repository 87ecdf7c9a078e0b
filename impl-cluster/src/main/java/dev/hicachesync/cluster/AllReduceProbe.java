package dev.hicachesync.cluster;

import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One rank process of the all-reduce measurement: joins its world, makes {@code warmup} then {@code calls}
 * all-reduce MIN calls of 8 longs on the whole world, and prints {@code p50_us p99_us mean_us} of its own
 * calls. Args: world rank calls warmup clusterName port...
 */
public final class AllReduceProbe {
  private AllReduceProbe() {}

  public static void main(String[] args) {
    int world = Integer.parseInt(args[0]);
    int rank = Integer.parseInt(args[1]);
    int calls = Integer.parseInt(args[2]);
    int warmup = Integer.parseInt(args[3]);
    String cluster = args[4];
    List<Integer> ports = new ArrayList<>();
    for (int i = 5; i < args.length; i++) {
      ports.add(Integer.parseInt(args[i]));
    }
    ClusterNode.quietJGroupsLogging();
    List<Integer> all = new ArrayList<>();
    for (int r = 0; r < world; r++) {
      all.add(r);
    }
    ClusterConfig cfg = new ClusterConfig(world, rank, "127.0.0.1", ports, Duration.ofSeconds(30), "probe", cluster);
    try (ClusterNode node = ClusterNode.join(cfg, Duration.ofSeconds(60))) {
      ProcessGroup g = node.group("world", all);
      long[] payload = new long[8];
      for (int i = 0; i < warmup; i++) {
        payload[0] = i;
        g.allReduce("S123", ReduceOp.MIN, payload);
      }
      long[] nanos = new long[calls];
      for (int i = 0; i < calls; i++) {
        payload[0] = i;
        long t0 = System.nanoTime();
        g.allReduce("S123", ReduceOp.MIN, payload);
        nanos[i] = System.nanoTime() - t0;
      }
      g.barrier("END"); // nobody leaves while another still measures
      Arrays.sort(nanos);
      double mean = Arrays.stream(nanos).average().orElse(0);
      System.out.printf("%.1f %.1f %.1f%n", nanos[calls / 2] / 1e3, nanos[(int) (calls * 0.99)] / 1e3, mean / 1e3);
    } catch (ClusterStartException e) {
      System.out.println("refused: " + e.getMessage());
      System.exit(2);
    }
  }
}
