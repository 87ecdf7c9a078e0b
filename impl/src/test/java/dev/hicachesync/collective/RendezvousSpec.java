package dev.hicachesync.collective;

import java.util.Arrays;

/**
 * The sequential specification of {@link AbstractRendezvousLincheckTest}: generation k's result is the
 * reduction over every rank of its scripted k-th value; if the ranks' k-th call sites differ, generation k
 * fails with a mismatch on every member and every later call finds the group broken.
 *
 * <p>Subclasses fix the number of ranks and the site script (Lincheck instantiates the spec reflectively).
 */
public abstract class RendezvousSpec {
  private final int[] calls;
  private final int ranks;

  RendezvousSpec(int ranks) {
    this.ranks = ranks;
    this.calls = new int[ranks];
  }

  /** See {@link AbstractRendezvousLincheckTest#allReduce}. */
  public String allReduce(int thread) {
    int rank = thread - 1;
    int k = calls[rank]++;
    for (int g = 0; g < k; g++) {
      if (mismatched(g)) {
        return "broken";
      }
    }
    if (mismatched(k)) {
      return "mismatch";
    }
    ReduceOp op = AbstractRendezvousLincheckTest.op(k);
    long[] acc = AbstractRendezvousLincheckTest.value(0, k);
    for (int r = 1; r < ranks; r++) {
      long[] v = AbstractRendezvousLincheckTest.value(r, k);
      for (int i = 0; i < acc.length; i++) {
        acc[i] = op.apply(acc[i], v[i]);
      }
    }
    return Arrays.toString(acc);
  }

  private boolean mismatched(int k) {
    for (int r = 1; r < ranks; r++) {
      if (!site(r, k).equals(site(0, k))) {
        return true;
      }
    }
    return false;
  }

  /** Must equal the test's {@code site}. */
  abstract String site(int rank, int k);

  /** Two ranks, matching sites. */
  public static final class TwoRanks extends RendezvousSpec {
    public TwoRanks() {
      super(2);
    }

    @Override
    String site(int rank, int k) {
      return "S" + (1 + k % 3);
    }
  }

  /** Three ranks, matching sites. */
  public static final class ThreeRanks extends RendezvousSpec {
    public ThreeRanks() {
      super(3);
    }

    @Override
    String site(int rank, int k) {
      return "S" + (1 + k % 3);
    }
  }

  /** Two ranks; rank 1's second call is at another site (a rank that skipped a sync point, as in B3). */
  public static final class TwoRanksSkewedSite extends RendezvousSpec {
    public TwoRanksSkewedSite() {
      super(2);
    }

    @Override
    String site(int rank, int k) {
      return LocalFabricMismatchLincheckTest.skewedSite(rank, k);
    }
  }
}
