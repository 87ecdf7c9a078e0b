package dev.hicachesync.collective;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link LocalFabric}'s rendezvous with two ranks as two threads, three collectives each
 * (model checking and stress): every member of generation k gets the reduction of every member's k-th
 * payload, whatever the interleaving, including a fast member starting generation k+1 while a slow one
 * still reads generation k's result.
 */
@Tag("lincheck")
public class LocalFabricLincheckTest extends AbstractRendezvousLincheckTest {
  private final ProcessGroup[] handles = fabricHandles(2);

  public LocalFabricLincheckTest() {
    super(2);
  }

  @Override
  long[] call(int rank, String site, ReduceOp op, long[] values) {
    return handles[rank].allReduce(site, op, values);
  }

  @Test
  void modelCheckingTest() {
    modelChecking(2, 3, RendezvousSpec.TwoRanks.class).check(getClass());
  }

  @Test
  void stressTest() {
    stress(2, 3, RendezvousSpec.TwoRanks.class).check(getClass());
  }
}
