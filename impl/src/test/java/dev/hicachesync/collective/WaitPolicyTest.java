package dev.hicachesync.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link WaitPolicy}: how a member waits before it parks. */
class WaitPolicyTest {
  @Test
  void autoSpinsWhenTheGroupLeavesACoreFreeAndYieldsOtherwise() {
    int cores = Runtime.getRuntime().availableProcessors();
    if (WaitPolicy.SPIN.equals("auto")) {
      if (cores > 1) {
        assertEquals(WaitPolicy.Mode.SPIN, WaitPolicy.forMembers(cores - 1).mode());
      }
      // As many members as cores: spinning lost to yielding 3-13.6 µs against 1.6-2.2 µs at 2 ranks on 2 cores.
      assertEquals(WaitPolicy.Mode.YIELD, WaitPolicy.forMembers(cores).mode());
      assertEquals(WaitPolicy.Mode.YIELD, WaitPolicy.forMembers(cores + 1).mode());
    }
  }

  @Test
  void activeWaitsOutlastAPartnersWakeUpAndParkNeverWaitsActively() {
    // A parked partner's wake-up took 10-50 µs on the 2-core VM: a spin shorter than that overruns it, and
    // the pair falls into parking every call (docs/explanation/concurrency.md, 1 Dec 2026).
    if (WaitPolicy.SPIN.equals("auto") && System.getProperty("hicache.collective.patienceMicros") == null
        && System.getProperty("hicache.collective.yieldPatienceMicros") == null) {
      if (Runtime.getRuntime().availableProcessors() > 1) {
        assertTrue(WaitPolicy.forMembers(1).activeNanos() >= 50_000);
      }
      // A yielding member waits out a late peer's step work instead of parking and leaving a core idle
      // (why, and the replay measured: WaitPolicy.MAX_YIELD_PATIENCE_NANOS).
      assertTrue(WaitPolicy.forMembers(Runtime.getRuntime().availableProcessors() + 1).activeNanos() >= 500_000);
    }
  }
}
