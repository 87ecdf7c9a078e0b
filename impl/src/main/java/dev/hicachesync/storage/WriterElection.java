package dev.hicachesync.storage;

import dev.hicachesync.topology.Topology;
import dev.hicachesync.vocabulary.Labelled;
import java.util.ArrayList;
import java.util.List;

/**
 * Which rank writes a page to L3 when the KV is replicated across the attn_tp ranks of one CP coordinate
 * (MLA-style KV): one writer per replicated group is enough, and every other rank skips the write. The
 * lower-case label is the TLA+ constant {@code Writer} of {@code spec/HiCacheReplicas.tla}.
 *
 * <p>Pure functions of the topology; any thread.
 */
public enum WriterElection implements Labelled {
  /**
   * B13 (#37149): the rank whose tp_rank is 0 writes. Correct before CP, when one attn_tp group held the
   * whole KV; under CP it leaves every CP shard but the first unwritten.
   */
  GLOBAL_TP0("global_tp0"),
  /** The fix: attn_tp rank 0 of every (stage, replica, CP coordinate) writes that coordinate's shard. */
  ATTN_TP0("attn_tp0");

  private final String label;

  WriterElection(String label) {
    this.label = label;
  }

  /** Returns the shared-vocabulary name, e.g. {@code attn_tp0}. */
  @Override
  public String label() {
    return label;
  }

  /**
   * Parses a label ({@code global_tp0} or {@code attn_tp0}).
   *
   * @throws IllegalArgumentException naming the accepted labels
   */
  public static WriterElection parse(String label) {
    return Labelled.find(WriterElection.class, label).orElseThrow(() -> new IllegalArgumentException(
        "unknown writer election '" + label + "' (global_tp0, attn_tp0)"));
  }

  /** Returns whether global {@code rank} writes its shard of a backed-up page to storage. */
  public boolean isWriter(Topology topology, int rank) {
    return switch (this) {
      case GLOBAL_TP0 -> topology.tpRank(rank) == 0;
      case ATTN_TP0 -> topology.coords(rank).tp() == 0;
    };
  }

  /** Returns the writing ranks in ascending order. */
  public List<Integer> writers(Topology topology) {
    List<Integer> writers = new ArrayList<>();
    for (int r = 0; r < topology.worldSize(); r++) {
      if (isWriter(topology, r)) {
        writers.add(r);
      }
    }
    return List.copyOf(writers);
  }
}
