package dev.hicachesync.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link WaitModeChooser} on a simulated clock: each call costs what the current way of waiting costs, and
 * the chooser must settle on the cheaper way, measuring the other once per span, a span that doubles while
 * the measurements confirm the choice.
 */
class WaitModeChooserTest {
  static final int E = WaitModeChooser.EXPLOIT_EPOCHS;

  /** A simulated group: the way each epoch ran, 'A' (active) or 'P' (parking). */
  static final class Group {
    final WaitModeChooser chooser = new WaitModeChooser();
    final StringBuilder epochs = new StringBuilder();
    long now;

    Group() {
      chooser.tick(now); // the first call starts the clock
    }

    /** Runs {@code n} epochs at these per-call costs. */
    Group run(int n, long activeNanos, long parkNanos) {
      for (int e = 0; e < n; e++) {
        char way = chooser.parking() ? 'P' : 'A';
        epochs.append(way);
        for (int i = 0; i < WaitModeChooser.EPOCH; i++) {
          now += chooser.parking() ? parkNanos : activeNanos;
          chooser.tick(now);
        }
      }
      return this;
    }

    /** Indexes of the epochs that ran {@code way}. */
    List<Integer> epochsThatRan(char way) {
      List<Integer> at = new ArrayList<>();
      for (int i = 0; i < epochs.length(); i++) {
        if (epochs.charAt(i) == way) {
          at.add(i);
        }
      }
      return at;
    }
  }

  /** Where the measurements fall: an active epoch, a parking one, then a span that doubles up to the max. */
  static List<Integer> measuredAt(int count) {
    List<Integer> at = new ArrayList<>();
    int epoch = 0;
    int span = E;
    for (int i = 0; i < count; i++) {
      at.add(epoch);
      epoch += 2 + span;
      span = Math.min(WaitModeChooser.MAX_EXPLOIT_EPOCHS, 2 * span);
    }
    return at;
  }

  static List<Integer> plusOne(List<Integer> xs) {
    return xs.stream().map(x -> x + 1).toList();
  }

  @Test
  void aLoadedMachineParksAndWaitsActivelyOnlyInItsMeasurements() {
    // Waiting actively 3x slower than parking (yielding measured at load 30).
    Group g = new Group().run(2_000, 60_000, 20_000);
    List<Integer> active = g.epochsThatRan('A');
    assertEquals(measuredAt(active.size()), active);
    assertEquals(7, active.size(), "spans 32, 64, 128, 256, 512, 512 epochs in 2,000");
  }

  @Test
  void anIdleMachineWaitsActivelyAndParksOnlyInItsMeasurements() {
    // Spinning 12x faster than parking (2 ranks, idle machine): parking is measured ever more rarely.
    Group g = new Group().run(2_000, 1_000, 12_000);
    List<Integer> parked = g.epochsThatRan('P');
    assertEquals(plusOne(measuredAt(parked.size())), parked);
    assertEquals(7, parked.size());
  }

  @Test
  void parkingMustWinByAQuarter() {
    Group g = new Group().run(300, 10_000, 8_000); // parking 20 % faster: noise
    assertEquals(plusOne(measuredAt(4)), g.epochsThatRan('P'));
  }

  @Test
  void aChangeOfCostsFlipsTheChoiceAndShortensTheSpanAgain() {
    Group g = new Group().run(1_000, 1_000, 12_000); // idle: spans grow to 512
    int loadedFrom = g.epochs.length();
    g.run(1_500, 60_000, 20_000); // the machine became loaded
    String after = g.epochs.substring(loadedFrom);
    int measuredParking = loadedFrom + after.indexOf("PPPP"); // its parking epoch, the span of parking after it
    int measurement = measuredParking - 1;
    assertEquals('A', g.epochs.charAt(measurement));
    // From that measurement on, the active epochs are measurements again at spans 32, 64, ...
    List<Integer> active = new ArrayList<>();
    for (int i = measurement; i < g.epochs.length(); i++) {
      if (g.epochs.charAt(i) == 'A') {
        active.add(i - measurement);
      }
    }
    assertEquals(measuredAt(active.size()), active);
  }
}
