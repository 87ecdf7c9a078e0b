package dev.hicachesync.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jgroups.Address;
import org.jgroups.View;

/**
 * Who is in a {@link ClusterNode}'s world: the address of each rank (learnt from its hello), the ranks that left
 * it, and a refused handshake. Guarded by the node's lock (every method: the caller holds it).
 */
final class Membership {
  private final ClusterConfig cfg;
  private final Address[] addressOf;
  private final Map<Address, Integer> rankOf = new HashMap<>();
  private final TreeSet<Integer> lost = new TreeSet<>();
  /** Peers this node has answered a hello from (each gets one direct hello back). */
  private final Set<Address> greeted = new HashSet<>();
  private String refusal;

  Membership(ClusterConfig cfg) {
    this.cfg = cfg;
    this.addressOf = new Address[cfg.world()];
  }

  /** Whether this is the first hello from {@code src} (it gets one direct hello back). */
  boolean firstHelloLocked(Address src) {
    return greeted.add(src);
  }

  /** Takes a peer's hello: learns its address, or records why the handshake is refused. */
  void helloLocked(Address src, int rank, String identity) {
    if (rank < 0 || rank >= cfg.world()) {
      refusal = "a process claims rank " + rank + ", outside this world of " + cfg.world() + " (rank "
          + cfg.rank() + " runs " + cfg.identity() + ")";
      return;
    }
    if (!identity.equals(cfg.identity())) {
      refusal = "handshake refused: rank " + rank + " runs " + identity + "; rank " + cfg.rank() + " runs "
          + cfg.identity();
      return;
    }
    if (rank == cfg.rank() || (addressOf[rank] != null && !addressOf[rank].equals(src))) {
      refusal = "two processes claim rank " + rank;
      return;
    }
    addressOf[rank] = src;
    rankOf.put(src, rank);
  }

  /** Takes a new view: every known rank outside it has left the world. */
  void viewLocked(View view) {
    for (Map.Entry<Address, Integer> e : rankOf.entrySet()) {
      if (!view.containsMember(e.getKey())) {
        lost.add(e.getValue());
      }
    }
  }

  /** Returns the address of {@code rank}; null if it never joined. */
  Address addressLocked(int rank) {
    return addressOf[rank];
  }

  /** Returns the ranks that left the world, ascending (the live set: callers only read it). */
  TreeSet<Integer> lostLocked() {
    return lost;
  }

  /** Records {@code rank} as lost; false if it already was. */
  boolean loseLocked(int rank) {
    return lost.add(rank);
  }

  /** Why the handshake was refused; null while it was not. */
  String refusalLocked() {
    return refusal;
  }

  /** The other ranks not heard a hello from yet, ascending. */
  List<Integer> missingLocked() {
    List<Integer> missing = new ArrayList<>();
    for (int r = 0; r < cfg.world(); r++) {
      if (r != cfg.rank() && addressOf[r] == null) {
        missing.add(r);
      }
    }
    return missing;
  }
}
