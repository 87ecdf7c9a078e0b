package dev.hicachesync.collective;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * INV-1 ({@code CollectiveMatching}) detection under every interleaving: rank 1's second collective is at
 * another call site (a rank that skipped a sync point, B3); both members of that generation must fail with
 * a mismatch — never a hang, never a result — and every later call must find the group broken.
 */
@Tag("lincheck")
public class LocalFabricMismatchLincheckTest extends AbstractRendezvousLincheckTest {
  private final ProcessGroup[] handles = fabricHandles(2);

  public LocalFabricMismatchLincheckTest() {
    super(2);
  }

  static String skewedSite(int rank, int k) {
    return rank == 1 && k == 1 ? "RECV" : "S" + (1 + k % 3);
  }

  @Override
  String site(int rank, int k) {
    return skewedSite(rank, k);
  }

  @Override
  long[] call(int rank, String site, ReduceOp op, long[] values) {
    return handles[rank].allReduce(site, op, values);
  }

  @Test
  void modelCheckingTest() {
    modelChecking(2, 3, RendezvousSpec.TwoRanksSkewedSite.class).check(getClass());
  }

  @Test
  void stressTest() {
    stress(2, 3, RendezvousSpec.TwoRanksSkewedSite.class).check(getClass());
  }
}
