package dev.hicachesync.topology;

/**
 * The coordinates of one rank: attention-DP replica, attention-CP shard, attention-TP position and
 * pipeline stage. Validated against a {@link Topology} by {@link Topology#rankOf(RankCoord)}.
 */
public record RankCoord(int dp, int cp, int tp, int pp) {

  @Override
  public String toString() {
    return "(dp=" + dp + ",cp=" + cp + ",tp=" + tp + ",pp=" + pp + ")";
  }
}
