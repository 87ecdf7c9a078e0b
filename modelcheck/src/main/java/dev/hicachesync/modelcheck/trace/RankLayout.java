package dev.hicachesync.modelcheck.trace;

/**
 * How ranks are numbered in a trace: {@code ranks} ranks 0..ranks-1, in sync domains of {@code
 * domainSize} consecutive ranks (the CP·TP ranks of one attention-DP replica of one stage), in stages of
 * {@code stageSize} consecutive ranks (every domain of one pipeline stage; {@code ranks} without PP).
 *
 * <p>A replica spans the stages: rank r of stage 0 and rank r + stageSize of stage 1 hold the same tree
 * (the pipeline specs compare them at equal step numbers), though they do not step in lockstep.
 */
public record RankLayout(int ranks, int domainSize, int stageSize) {

  public RankLayout {
    if (ranks < 1 || domainSize < 1 || stageSize < 1) {
      throw new IllegalArgumentException("ranks, domain size and stage size must be at least 1");
    }
  }

  /** One stage: every rank in it. */
  public RankLayout(int ranks, int domainSize) {
    this(ranks, domainSize, ranks);
  }

  /** The layout of {@code topology}'s ranks, or null without a topology or with a single rank. */
  public static RankLayout of(dev.hicachesync.topology.Topology topology) {
    if (topology == null || topology.worldSize() < 2) {
      return null;
    }
    return new RankLayout(topology.worldSize(), topology.cpTpGroup(0).size(), topology.worldSize() / Math.max(1, topology.pp()));
  }

  /** The sync domain of {@code rank}. */
  public int domain(int rank) {
    return rank / domainSize;
  }

  /** The replica of {@code rank}: its domain's position within its stage, the same on every stage. */
  public int replica(int rank) {
    return (rank % stageSize) / domainSize;
  }

  /** The pipeline stage of {@code rank}. */
  public int stage(int rank) {
    return rank / stageSize;
  }

  /** Whether the layout has more than one domain. */
  public boolean hasSeveralDomains() {
    return ranks > domainSize;
  }

  /** Whether the layout has more than one pipeline stage. */
  public boolean hasSeveralStages() {
    return ranks > stageSize;
  }
}
