package dev.hicachesync.collective;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@link LocalFabricLincheckTest} with three ranks (a CP×TP group of 3), two collectives each. */
@Tag("lincheck")
public class LocalFabricThreeRanksLincheckTest extends AbstractRendezvousLincheckTest {
  private final ProcessGroup[] handles = fabricHandles(3);

  public LocalFabricThreeRanksLincheckTest() {
    super(3);
  }

  @Override
  long[] call(int rank, String site, ReduceOp op, long[] values) {
    return handles[rank].allReduce(site, op, values);
  }

  @Test
  void modelCheckingTest() {
    modelChecking(3, 2, RendezvousSpec.ThreeRanks.class).check(getClass());
  }

  @Test
  void stressTest() {
    stress(3, 2, RendezvousSpec.ThreeRanks.class).check(getClass());
  }
}
