package dev.hicachesync.modelcheck;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Parallel sizes of a model: attention data-, context- and tensor-parallel, and pipeline stages.
 *
 * <p>Ranks are numbered as in SGLang: {@code tp_rank = (dp·CP + cp)·TP + tp} within a stage and
 * {@code rank = pp·(DP·CP·TP) + tp_rank}; the ranks of one attention-DP replica of one stage form
 * a sync domain of CP·TP consecutive ranks.
 */
public record Topology(int dp, int cp, int tp, int pp) {

  /** Jackson entry point: {@code pp} may be left out and means 1. */
  @JsonCreator
  public static Topology of(
      @JsonProperty("dp") int dp,
      @JsonProperty("cp") int cp,
      @JsonProperty("tp") int tp,
      @JsonProperty("pp") Integer pp) {
    return new Topology(dp, cp, tp, pp == null ? 1 : pp);
  }

  /** All ranks: DP·CP·TP·PP. */
  public int ranks() {
    return dp * cp * tp * pp;
  }

  /** Ranks per sync domain: CP·TP. */
  public int domainSize() {
    return cp * tp;
  }

  /** Whether every size is at least 1. */
  public boolean isValid() {
    return dp >= 1 && cp >= 1 && tp >= 1 && pp >= 1;
  }

  /** {@code dp,cp,tp,pp} as in the report tables. */
  @Override
  public String toString() {
    return dp + "," + cp + "," + tp + "," + pp;
  }
}
