package dev.hicachesync.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * {@link WaitModeChooser} on a simulated clock: each call costs what the current way of waiting costs, and
 * the chooser must settle on the cheaper way, measuring the other once per cycle only.
 */
class WaitModeChooserTest {
  static final int CYCLE = (WaitModeChooser.EXPLOIT_EPOCHS + 2) * WaitModeChooser.EPOCH;

  /** Runs {@code calls} calls; returns how many of them ran parking. */
  static int parkingCalls(WaitModeChooser chooser, int calls, long yieldNanos, long parkNanos) {
    long now = 0;
    int parking = 0;
    for (int i = 0; i < calls; i++) {
      boolean park = chooser.parking();
      parking += park ? 1 : 0;
      now += park ? parkNanos : yieldNanos;
      chooser.tick(now);
    }
    return parking;
  }

  @Test
  void aLoadedMachineParks() {
    // Yielding 3x slower than parking (measured at load 30): all but the measured yielding epoch park.
    WaitModeChooser chooser = new WaitModeChooser();
    int parked = parkingCalls(chooser, 1 + 10 * CYCLE, 60_000, 20_000);
    assertEquals(10 * (CYCLE - WaitModeChooser.EPOCH), parked);
  }

  @Test
  void anIdleMachineYieldsAndMeasuresParkingOncePerCycle() {
    // Yielding 5x faster (idle machine): one parking epoch per cycle.
    WaitModeChooser chooser = new WaitModeChooser();
    int parked = parkingCalls(chooser, 1 + 10 * CYCLE, 6_000, 30_000);
    assertEquals(10 * WaitModeChooser.EPOCH, parked);
  }

  @Test
  void parkingMustWinByAQuarter() {
    WaitModeChooser chooser = new WaitModeChooser();
    int parked = parkingCalls(chooser, 1 + 10 * CYCLE, 10_000, 8_000); // parking 20 % faster: noise
    assertEquals(10 * WaitModeChooser.EPOCH, parked);
  }
}
