package dev.hicachesync.cluster;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How one rank process joins its world: its rank, where every rank listens, the collective timeout, and the
 * identity that every rank must share (the handshake compares it at start-up).
 *
 * @param world number of rank processes
 * @param rank this process's global rank, {@code 0 <= rank < world}
 * @param host the address every rank binds and dials (loopback unless ranks run on several machines)
 * @param ports the TCP port of each rank, indexed by rank
 * @param timeout how long a collective or a pipeline receive waits for a member before failing
 * @param identity what every rank must agree on before any collective (protocol version, topology, ...),
 *     as {@code name=value} pairs in a fixed order, e.g. {@code version=merged topology=dp1,cp2,tp2,pp1}
 * @param clusterName the JGroups cluster name (distinct worlds on one host must differ)
 */
public record ClusterConfig(
    int world, int rank, String host, List<Integer> ports, Duration timeout, String identity, String clusterName) {

  /** Validates the configuration: a bad one is a one-line {@link IllegalArgumentException}. */
  public ClusterConfig {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(clusterName, "clusterName");
    ports = List.copyOf(ports);
    if (world < 1) {
      throw new IllegalArgumentException("world size must be at least 1, got " + world);
    }
    if (rank < 0 || rank >= world) {
      throw new IllegalArgumentException("rank " + rank + " is outside the world 0.." + (world - 1));
    }
    if (ports.size() != world) {
      throw new IllegalArgumentException("need one port per rank: " + ports.size() + " ports for world " + world);
    }
    checkPorts(ports);
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
  }

  /**
   * Checks a world's ports: each in 1..65535 and each rank's own. Two ranks given one port could never both
   * bind it; the second would wait out the whole start-up timeout for a world that cannot assemble.
   *
   * @throws IllegalArgumentException one line naming the port and the ranks that share it
   */
  public static void checkPorts(List<Integer> ports) {
    java.util.Map<Integer, Integer> owner = new java.util.HashMap<>();
    for (int r = 0; r < ports.size(); r++) {
      int p = ports.get(r);
      if (p < 1 || p > 65535) {
        throw new IllegalArgumentException("port " + p + " is outside 1..65535");
      }
      Integer first = owner.putIfAbsent(p, r);
      if (first != null) {
        throw new IllegalArgumentException("port " + p + " is given to rank " + first + " and rank " + r
            + ": every rank binds a port of its own");
      }
    }
  }
}
