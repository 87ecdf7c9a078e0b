package dev.hicachesync.report.swimlane;

import dev.hicachesync.topology.RankCoord;
import dev.hicachesync.topology.Topology;
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
    boolean known = topology != null && topology.worldSize() == ranks;
    for (int r = 0; r < ranks; r++) {
      if (!known) {
        lanes.add(new Lane(r, "", ""));
        continue;
      }
      RankCoord c = topology.coords(r);
      lanes.add(new Lane(r, "pp " + c.pp() + " · dp " + c.dp() + " · cp " + c.cp() + " · tp " + c.tp(),
          "stage " + c.pp() + " · replica " + c.dp()));
    }
    return lanes;
  }

  /** "rank 3". */
  public String title() {
    return "rank " + rank;
  }
}
