package dev.hicachesync.sim;

import dev.hicachesync.cluster.ClusterNode;
import dev.hicachesync.collective.LocalFabric;
import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.collective.ProcessGroup;
import java.util.List;

/**
 * Where the simulator gets a rank's groups and pipeline channels: the in-JVM fabric (every rank a thread of
 * this JVM) or a {@link ClusterNode} (this process is one rank; its peers are other processes). The simulator
 * asks for the same names either way, so the groups pair up the same.
 */
interface GroupSource {
  /** Returns {@code rank}'s handle on the group {@code name} of {@code members}. */
  ProcessGroup group(String name, List<Integer> members, int rank);

  /** Returns the pipeline channel {@code name} from {@code from} to {@code to}, seen from the calling rank. */
  PipeChannel channel(String name, int from, int to);

  /** Every rank in this JVM, on one fabric. */
  static GroupSource of(LocalFabric fabric) {
    return new GroupSource() {
      @Override
      public ProcessGroup group(String name, List<Integer> members, int rank) {
        return fabric.group(name, members, rank);
      }

      @Override
      public PipeChannel channel(String name, int from, int to) {
        return fabric.channel(name, from, to);
      }
    };
  }

  /**
   * This process's rank on a cluster node. Channels are routed by their ends alone: the simulator has one
   * pipeline channel per pair of neighbouring stages, so the name adds nothing.
   */
  static GroupSource of(ClusterNode node) {
    return new GroupSource() {
      @Override
      public ProcessGroup group(String name, List<Integer> members, int rank) {
        if (rank != node.rank()) {
          throw new IllegalArgumentException("rank " + rank + " asked for a group on rank " + node.rank() + "'s node");
        }
        return node.group(name, members);
      }

      @Override
      public PipeChannel channel(String name, int from, int to) {
        return node.pipe(from, to);
      }
    };
  }
}
