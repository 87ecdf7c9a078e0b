package dev.hicachesync.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The learned patience of {@link WaitPolicy} (issue 13): what a member does with its own waits. */
class WaitPolicyTest {
  static final long MAX = WaitPolicy.MAX_PATIENCE_NANOS;

  @Test
  void autoSpinsWhenTheGroupFitsTheProcessorsAndYieldsOtherwise() {
    int cores = Runtime.getRuntime().availableProcessors();
    if (WaitPolicy.SPIN.equals("auto")) {
      assertEquals(WaitPolicy.Mode.SPIN, WaitPolicy.forMembers(cores).mode);
      assertEquals(WaitPolicy.Mode.YIELD, WaitPolicy.forMembers(cores + 1).mode);
    }
  }

  @Test
  void sustainedOverrunsBringThePatienceToNoneAndSuccessesBringItBack() {
    WaitPolicy.Patience p = new WaitPolicy.Patience(WaitPolicy.Mode.SPIN);
    for (int i = 0; i < 60; i++) { // a loaded machine: every wait parks
      p.next(false);
      p.learn(true, MAX);
    }
    assertEquals(0, p.nanos(), "after 60 overruns a member parks at once");
    p.next(false);
    p.learn(false, 3_000); // the group completed within the active phase after 3 µs (e.g. a probe)
    assertEquals(6_000, p.nanos(), "a success makes the patience twice what the wait took");
    p.next(false);
    p.learn(true, 6_000);
    assertEquals(6_000 - 6_000 / WaitPolicy.DECAY, p.nanos(), "one overrun (jitter) only trims it");
  }

  @Test
  void everyProbeEveryThWaitSpinsTheFullPatience() {
    WaitPolicy.Patience p = new WaitPolicy.Patience(WaitPolicy.Mode.SPIN);
    int full = 0;
    for (int i = 0; i < 10 * WaitPolicy.PROBE_EVERY; i++) {
      if (p.next(false) == MAX) {
        full++;
      }
      p.learn(true, MAX); // every wait (probes included) overruns: spin probes keep their interval
    }
    assertEquals(10, full);
  }

  @Test
  void failedYieldProbesBackOff() {
    WaitPolicy.Patience p = new WaitPolicy.Patience(WaitPolicy.Mode.YIELD);
    long max = WaitPolicy.MAX_YIELD_PATIENCE_NANOS;
    int full = 0;
    int waits = 3 * WaitPolicy.PROBE_EVERY + 4 * WaitPolicy.PROBE_EVERY; // probes at 64, 128 and 256
    for (int i = 0; i < waits; i++) {
      if (p.next(false) == max) {
        full++;
      }
      p.learn(true, max);
    }
    assertEquals(3, full, "a failed yield probe doubles the interval to the next");
  }

  @Test
  void waitsAfterAWakeUpAreLearnedApart() {
    WaitPolicy.Patience p = new WaitPolicy.Patience(WaitPolicy.Mode.SPIN);
    long start = p.afterWakeNanos();
    for (int i = 0; i < 60; i++) { // the partner keeps parking: the plain estimate decays
      p.next(false);
      p.learn(true, MAX);
    }
    assertEquals(0, p.nanos());
    assertEquals(start, p.afterWakeNanos(), "the wait that includes a partner's wake-up keeps its own");
    assertTrue(p.next(true) > 0, "so the waker spins through the wake-up");
  }

  @Test
  void parkPolicyNeverWaitsActively() {
    WaitPolicy.Patience p = new WaitPolicy.Patience(WaitPolicy.Mode.PARK);
    for (int i = 0; i < 2 * WaitPolicy.PROBE_EVERY; i++) {
      assertEquals(0, p.next(i % 2 == 0));
      p.learn(false, 0);
    }
  }
}
