package dev.hicachesync.report.swimlane;

import dev.hicachesync.modelcheck.Topology;
import java.util.ArrayList;
import java.util.List;

/**
 * One rank's lane: its number, its coordinates (stage, attention-DP replica, CP and TP rank) and the
 * sync domain it belongs to, whose lanes are drawn side by side under one heading.
 *
 * @param rank the global rank
 * @param coordinates "pp 0 · dp 0 · cp 1 · tp 0", or "" when the topology is not known
 * @param domain heading of its sync domain ("stage 0 · replica 0"), or "" when not known
 */
public record Lane(int rank, String coordinates, String domain) {

  /**
   * The lanes of {@code ranks} ranks numbered as in SGLang ({@code rank = pp·(DP·CP·TP) + (dp·CP +
   * cp)·TP + tp}); without a topology, or with one of another size, the lanes carry only their number.
   */
  public static List<Lane> of(int ranks, Topology topology) {
    List<Lane> lanes = new ArrayList<>();
    boolean known = topology != null && topology.ranks() == ranks;
    for (int r = 0; r < ranks; r++) {
      if (!known) {
        lanes.add(new Lane(r, "", ""));
        continue;
      }
      int perStage = topology.dp() * topology.cp() * topology.tp();
      int stage = r / perStage;
      int tpRank = r % perStage;
      int dp = tpRank / (topology.cp() * topology.tp());
      int cp = (tpRank / topology.tp()) % topology.cp();
      int tp = tpRank % topology.tp();
      lanes.add(new Lane(r, "pp " + stage + " · dp " + dp + " · cp " + cp + " · tp " + tp,
          "stage " + stage + " · replica " + dp));
    }
    return lanes;
  }

  /** "rank 3". */
  public String title() {
    return "rank " + rank;
  }
}
