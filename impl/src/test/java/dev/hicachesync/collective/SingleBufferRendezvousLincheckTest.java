package dev.hicachesync.collective;

import dev.hicachesync.testing.LincheckRuns;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The rendezvous check bites on the shape {@link Rendezvous} has now: every member publishes
 * its arrival on its own counter and reduces the others' copies itself. The twin below does exactly that
 * but keeps one payload copy per member instead of {@link MemberSlot}'s two (buffer {@code k & 1}).
 *
 * <p>The race it must be caught in: both ranks arrive in generation k; rank 0 reduces, returns, and in
 * generation k+1 copies its next payload over the one rank 1 has not read yet; rank 1 then reduces
 * generation k+1's value of rank 0 into generation k's result. Lincheck's model checker must find it
 * (the same check passes on {@link LocalFabric}: {@link LocalFabricLincheckTest}).
 */
@Tag("lincheck")
public class SingleBufferRendezvousLincheckTest extends AbstractRendezvousLincheckTest {
  private final SingleBufferRendezvous rendezvous = new SingleBufferRendezvous(2);

  public SingleBufferRendezvousLincheckTest() {
    super(2);
  }

  @Override
  long[] call(int rank, String site, ReduceOp op, long[] values) {
    return rendezvous.call(rank, op, values);
  }

  @Test
  void modelCheckingRejects() {
    LincheckRuns.assertRejected(() -> modelChecking(2, 3, RendezvousSpec.TwoRanks.class).check(getClass()),
        "Invalid execution results");
  }

  /** Per-member arrival counters, each member reducing the others' copies; one copy per member (the bug). */
  static final class SingleBufferRendezvous {
    private final AtomicLongArray arrived;
    private final long[][] copies;
    private final long[] calls;

    SingleBufferRendezvous(int members) {
      arrived = new AtomicLongArray(members);
      copies = new long[members][8];
      calls = new long[members];
    }

    long[] call(int rank, ReduceOp op, long[] values) {
      long k = calls[rank]++;
      System.arraycopy(values, 0, copies[rank], 0, values.length); // BUG: the copy generation k-1's readers use
      arrived.set(rank, k + 1);
      for (int m = 0; m < arrived.length(); m++) {
        while (arrived.get(m) <= k) {
          Thread.yield();
        }
      }
      long[] out = values.clone();
      for (int m = 0; m < copies.length; m++) {
        for (int i = 0; i < out.length; i++) {
          out[i] = op.apply(out[i], copies[m][i]);
        }
      }
      return out;
    }
  }
}
