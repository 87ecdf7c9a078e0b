package dev.hicachesync.collective;

import dev.hicachesync.testing.LincheckRuns;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The rendezvous check bites: a plausible rendezvous that reuses one accumulator array across generations
 * and hands it out as the result must be rejected by Lincheck.
 *
 * <p>The race (what {@link Rendezvous}'s fresh result per member and {@link MemberSlot}'s two payload
 * copies prevent): rank 1 arrives last in generation k and returns; before rank 0 wakes up, rank 1 enters
 * generation k+1 and copies its payload into the shared array in place; rank 0 then returns generation
 * k+1's partial values as generation k's result — the two ranks apply different S1 counts (AckAgreement).
 */
@Tag("lincheck")
public class BrokenRendezvousLincheckTest extends AbstractRendezvousLincheckTest {
  private final AliasingRendezvous rendezvous = new AliasingRendezvous(2);

  public BrokenRendezvousLincheckTest() {
    super(2);
  }

  @Override
  long[] call(int rank, String site, ReduceOp op, long[] values) {
    return rendezvous.call(op, values);
  }

  @Test
  void modelCheckingRejects() {
    LincheckRuns.assertRejected(() -> modelChecking(2, 3, RendezvousSpec.TwoRanks.class).check(getClass()),
        "Invalid execution results");
  }

  /** One generation-counting barrier over a shared, reused accumulator (the bug). Monitor-synchronized. */
  static final class AliasingRendezvous {
    private final int members;
    private int arrived;
    private long generation;
    private long[] acc;
    private long[] result;

    AliasingRendezvous(int members) {
      this.members = members;
    }

    synchronized long[] call(ReduceOp op, long[] v) {
      long gen = generation;
      if (arrived == 0) {
        if (acc == null) {
          acc = new long[v.length];
        }
        System.arraycopy(v, 0, acc, 0, v.length); // BUG: overwrites the array the last generation returned
      } else {
        for (int i = 0; i < v.length; i++) {
          acc[i] = op.apply(acc[i], v[i]);
        }
      }
      if (++arrived == members) {
        arrived = 0;
        result = acc; // BUG: no copy
        generation++;
        notifyAll();
        return result;
      }
      while (generation == gen) {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
      return result;
    }
  }
}
