package dev.hicachesync.topology;

import java.util.List;

/**
 * The groups HiCache's scheduler sync points reduce over, in order (B2, #7158). With DP attention the stage's
 * tp group spans every replica, so a busy replica's reduction waits for an idle one that never calls it; the
 * groups of one replica (attn_cp, then attn_tp: #20460) keep each replica to itself. The lower-case label is the
 * TLA+ constant {@code CacheGroup} of {@code spec/HiCacheReplicas.tla}; {@code sync.SyncLayer} of version {@code
 * post20460} reduces over {@link #stages} (attn_cp, then attn_tp; a singleton group skipped).
 *
 * <p>Pure functions of the topology; any thread.
 */
public enum CacheGroup {
  /** B2: the stage's tp group (dp·cp·tp ranks), which spans the replicas under DP attention. */
  TP("tp"),
  /** The fix: the groups of one replica, attn_cp then attn_tp. */
  ATTN_TP("attn_tp");

  private final String label;

  CacheGroup(String label) {
    this.label = label;
  }

  /** Returns the shared-vocabulary name, e.g. {@code attn_tp}. */
  public String label() {
    return label;
  }

  /** Returns the cache group labelled {@code label} ({@code tp} or {@code attn_tp}). */
  public static CacheGroup parse(String label) {
    for (CacheGroup g : values()) {
      if (g.label.equals(label)) {
        return g;
      }
    }
    throw new IllegalArgumentException("unknown cache group '" + label + "' (tp, attn_tp)");
  }

  /**
   * Returns the member lists {@code rank}'s cache sync points reduce over, in order: for {@link #TP} its tp group
   * alone (as the attn_tp step, attn_cp empty), for {@link #ATTN_TP} its attn_cp group, then its attn_tp group.
   */
  public List<List<Integer>> stages(Topology topology, int rank) {
    return this == TP ? List.of(List.of(), topology.tpGroup(rank))
        : List.of(topology.attnCpGroup(rank), topology.attnTpGroup(rank));
  }
}
