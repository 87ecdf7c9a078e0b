package dev.hicachesync.tier;

import dev.hicachesync.env.ManualTicker;
import dev.hicachesync.testing.LincheckRuns;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link SimulatedCopy}, the event several threads observe (the scheduler polling S1/S2, the copy engine
 * thread, a later PP stage awaiting): it is done exactly when the clock has reached its ready tick, and
 * its bytes move exactly once, by whichever observer gets there first. Checked against {@link Spec}; the
 * counter of moves is an {@link AtomicInteger} so that the test itself has no race.
 */
@Tag("lincheck")
public class SimulatedCopyLincheckTest {
  private static final long READY_AT = 2;
  private final ManualTicker clock = new ManualTicker();
  private final AtomicInteger moves = new AtomicInteger();
  private final SimulatedCopy copy = new SimulatedCopy(clock, READY_AT, moves::incrementAndGet, "test copy");

  /** The run's clock advances one tick (the driver: one thread). */
  @Operation(nonParallelGroup = "clock")
  public void tick() {
    clock.advance(1);
  }

  @Operation
  public boolean isDone() {
    return copy.isDone();
  }

  /** How many times the copy's data movement ran. */
  @Operation
  public int moves() {
    return moves.get();
  }

  @Test
  void modelCheckingTest() {
    LincheckRuns.modelChecking(3, 2, Spec.class).check(getClass());
  }

  @Test
  void stressTest() {
    LincheckRuns.stress(3, 2, Spec.class).check(getClass());
  }

  /** Sequential model: a tick count; done iff it reached the ready tick; one move, made by the first "done". */
  public static class Spec {
    private long ticks;
    private boolean moved;

    public void tick() {
      ticks++;
    }

    public boolean isDone() {
      if (ticks >= READY_AT) {
        moved = true;
        return true;
      }
      return false;
    }

    public int moves() {
      return moved ? 1 : 0;
    }
  }
}
