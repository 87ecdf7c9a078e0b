package dev.hicachesync.controller;

import dev.hicachesync.testing.LincheckRuns;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link HandOffWorker}'s stepped hand-off ({@link HandOffWorker#runAndAwait}) as the scheduler uses it:
 * several callers hand work that changes state confined to the worker (plain fields, as the controller's
 * are) and read the task's result once the call returns. Against {@link Spec}, an accumulator written apart
 * from it: every call sees its own addition and all before it. Stress mode only: the worker's thread is not
 * one Lincheck's model checker controls. One worker serves every scenario (a thread per scenario would pile
 * up idle threads); the state it guards is per scenario.
 *
 * <p>Broken twin: {@link NoWaitHandOffLincheckTest}, a hand-off that returns before its work ran.
 */
@Tag("lincheck")
@Param(name = "v", gen = IntGen.class, conf = "1:3")
public class HandOffWorkerLincheckTest {
  static final HandOffWorker WORKER = new HandOffWorker("hicache-lincheck-worker", () -> {});
  /** Confined to the worker thread. */
  private long sum;

  /** Hands "add {@code v}" to the worker and returns the sum the task saw. */
  @Operation(params = {"v"})
  public long add(int v) {
    long[] out = new long[1];
    handOff(() -> {
      sum += v;
      out[0] = sum;
    });
    return out[0];
  }

  /** The hand-off under test. */
  void handOff(Runnable work) {
    WORKER.runAndAwait(work);
  }

  @Test
  void stressTest() {
    LincheckRuns.stress(3, 3, Spec.class).check(getClass());
  }

  /** Sequential model: a running sum. */
  public static class Spec {
    private long sum;

    public long add(int v) {
      sum += v;
      return sum;
    }
  }
}
