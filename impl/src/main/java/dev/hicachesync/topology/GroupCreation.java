package dev.hicachesync.topology;

import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * The order in which a rank calls {@code new_group} at start-up (B16, #15805). {@code new_group} is a
 * world collective: every rank of the job makes every call, and the k-th call of every rank must name the
 * same member list, otherwise the store rendezvous of that call never completes and start-up hangs. The
 * lower-case label is the TLA+ constant {@code GroupOrder} of {@code spec/HiCacheReplicas.tla}.
 *
 * <p>Pure functions of the topology; any thread.
 */
public enum GroupCreation {
  /** B16: each rank creates only the groups it belongs to (ranks 0-1 create [0,1], ranks 2-3 [2,3]). */
  OWN_GROUPS("own_groups"),
  /** The fix: every rank creates every distinct group in one sorted order ({@link Topology#allDistinctGroups}). */
  SORTED_ALL("sorted_all");

  private final String label;

  GroupCreation(String label) {
    this.label = label;
  }

  /** Returns the shared-vocabulary name, e.g. {@code sorted_all}. */
  public String label() {
    return label;
  }

  /** Returns the member lists that {@code rank} passes to its successive {@code new_group} calls. */
  public List<List<Integer>> sequence(Topology topology, int rank) {
    List<List<Integer>> all = topology.allDistinctGroups();
    if (this == SORTED_ALL) {
      return all;
    }
    List<List<Integer>> own = new ArrayList<>();
    for (List<Integer> g : all) {
      if (g.contains(rank)) {
        own.add(g); // a subsequence of the sorted order: still sorted
      }
    }
    return List.copyOf(own);
  }

  /**
   * Makes {@code rank}'s {@code new_group} calls in this order on {@code world} (every rank of the job): each
   * call is a world collective whose call site names the member list, as the store rendezvous of the k-th call
   * is keyed by the call number and waits for the list named there. A rank that names another list at the same
   * call fails it by mismatch, one that makes fewer calls by the fabric's timeout ({@code CollectiveMatching},
   * the start-up hang of B16). Returns the calls made. The rank's own thread.
   *
   * @throws dev.hicachesync.collective.CollectiveException when a call cannot complete
   */
  public int create(ProcessGroup world, Topology topology, int rank) {
    List<List<Integer>> seq = sequence(topology, rank);
    for (List<Integer> members : seq) {
      world.allReduce("new_group" + members.toString().replace(" ", ""), ReduceOp.MAX, new long[] {0});
    }
    return seq.size();
  }

  /** Returns the creation order labelled {@code label} ({@code own_groups} or {@code sorted_all}). */
  public static GroupCreation parse(String label) {
    for (GroupCreation g : values()) {
      if (g.label.equals(label)) {
        return g;
      }
    }
    throw new IllegalArgumentException("unknown group creation order '" + label + "' (own_groups, sorted_all)");
  }

  /**
   * Returns the index of the first {@code new_group} call that cannot complete (some rank names a
   * different member list, or makes no such call while others do), or empty if every call completes.
   */
  public OptionalInt firstStuckCall(Topology topology) {
    List<List<List<Integer>>> perRank = new ArrayList<>();
    int longest = 0;
    for (int r = 0; r < topology.worldSize(); r++) {
      List<List<Integer>> seq = sequence(topology, r);
      perRank.add(seq);
      longest = Math.max(longest, seq.size());
    }
    for (int k = 0; k < longest; k++) {
      List<Integer> first = k < perRank.get(0).size() ? perRank.get(0).get(k) : null;
      for (List<List<Integer>> seq : perRank) {
        List<Integer> mine = k < seq.size() ? seq.get(k) : null;
        if (first == null || !first.equals(mine)) {
          return OptionalInt.of(k);
        }
      }
    }
    return OptionalInt.empty();
  }
}
