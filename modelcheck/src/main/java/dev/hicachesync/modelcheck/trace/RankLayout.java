package dev.hicachesync.modelcheck.trace;

/**
 * How ranks are numbered in a trace: {@code ranks} ranks 0..ranks-1, in sync domains of {@code
 * domainSize} consecutive ranks (the CP·TP ranks of one attention-DP replica of one stage).
 */
public record RankLayout(int ranks, int domainSize) {

  public RankLayout {
    if (ranks < 1 || domainSize < 1) {
      throw new IllegalArgumentException("ranks and domain size must be at least 1");
    }
  }

  /** The sync domain of {@code rank}. */
  public int domain(int rank) {
    return rank / domainSize;
  }

  /** Whether the layout has more than one domain. */
  public boolean hasSeveralDomains() {
    return ranks > domainSize;
  }
}
