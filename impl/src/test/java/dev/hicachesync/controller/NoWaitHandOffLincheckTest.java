package dev.hicachesync.controller;

import dev.hicachesync.testing.LincheckRuns;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Broken twin of {@link HandOffWorkerLincheckTest}: the stepped hand-off returns as soon as the work is
 * queued ({@link HandOffWorker#submit}), so the caller reads the task's result before (or while) it runs,
 * the mistake that would let a scheduler read an S7 outcome its prefetch pass has not produced yet.
 */
@Tag("lincheck")
@Param(name = "v", gen = IntGen.class, conf = "1:3")
public class NoWaitHandOffLincheckTest extends HandOffWorkerLincheckTest {

  @Override
  void handOff(Runnable work) {
    WORKER.submit(work);
  }

  @Test
  @Override
  void stressTest() {
    StressOptions o = LincheckRuns.stress(3, 3, Spec.class).iterations(LincheckRuns.BROKEN_ITERATIONS);
    LincheckRuns.assertRejected(() -> o.check(getClass()), null);
  }
}
