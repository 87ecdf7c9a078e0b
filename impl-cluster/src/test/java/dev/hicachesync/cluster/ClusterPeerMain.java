package dev.hicachesync.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A rank process for the fault tests: joins the world given on the command line and makes barrier calls on
 * the whole world until its peers fail or it is killed. Args: world rank timeoutMs clusterName identity port...
 */
public final class ClusterPeerMain {
  private ClusterPeerMain() {}

  public static void main(String[] args) throws Exception {
    int world = Integer.parseInt(args[0]);
    int rank = Integer.parseInt(args[1]);
    Duration timeout = Duration.ofMillis(Long.parseLong(args[2]));
    String cluster = args[3];
    String identity = args[4];
    List<Integer> ports = new ArrayList<>();
    for (int i = 5; i < args.length; i++) {
      ports.add(Integer.parseInt(args[i]));
    }
    List<Integer> all = new ArrayList<>();
    for (int r = 0; r < world; r++) {
      all.add(r);
    }
    try (ClusterNode node = ClusterNode.join(Worlds.config(world, rank, ports, timeout, identity, cluster),
        Duration.ofSeconds(30))) {
      var group = node.group("world", all);
      System.out.println("joined");
      System.out.flush();
      for (long i = 0; ; i++) {
        group.allReduce("S1", dev.hicachesync.collective.ReduceOp.MIN, new long[] {i});
      }
    } catch (ClusterStartException e) {
      System.out.println("refused: " + e.getMessage());
      System.exit(2);
    } catch (RuntimeException e) {
      System.out.println("failed: " + e.getMessage());
      System.exit(1);
    }
  }
}
