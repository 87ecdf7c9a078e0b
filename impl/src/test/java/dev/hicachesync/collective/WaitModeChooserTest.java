package dev.hicachesync.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.collective.WaitPolicy.Mode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link WaitModeChooser} on a simulated clock: each call costs what the current way of waiting costs, and
 * the chooser must settle on the cheaper way, measuring the others once per span, a span that doubles while
 * the measurements confirm the choice; a measurement that cannot win any more ends early. Checked on the
 * runs of calls that waited the same way.
 */
class WaitModeChooserTest {
  static final int EPOCH = WaitModeChooser.EPOCH;
  static final int PARK_EPOCH = WaitModeChooser.PARK_EPOCH;

  /**
   * A simulated group and the runs of consecutive calls that waited alike: 'A'ctive (the one active way of
   * a default chooser), 'S'pinning, 'Y'ielding or 'P'arking.
   */
  static final class Group {
    final WaitModeChooser chooser;
    final boolean oneActiveWay;
    final List<Character> ways = new ArrayList<>();
    final List<Long> lengths = new ArrayList<>();
    long now;

    Group() {
      this(new WaitModeChooser(), true);
    }

    Group(List<Mode> activeWays) {
      this(new WaitModeChooser(activeWays), false);
    }

    private Group(WaitModeChooser chooser, boolean oneActiveWay) {
      this.chooser = chooser;
      this.oneActiveWay = oneActiveWay;
      chooser.tick(now); // the first call starts the clock
    }

    /** Runs {@code calls} calls at these per-call costs (one active way). */
    Group run(long calls, long activeNanos, long parkNanos) {
      return run(calls, activeNanos, activeNanos, parkNanos);
    }

    /** Runs {@code calls} calls at these per-call costs of spinning, yielding and parking. */
    Group run(long calls, long spinNanos, long yieldNanos, long parkNanos) {
      for (long i = 0; i < calls; i++) {
        Mode mode = chooser.mode();
        char way = mode == Mode.PARK ? 'P' : oneActiveWay ? 'A' : mode.name().charAt(0);
        int last = ways.size() - 1;
        if (last >= 0 && ways.get(last) == way) {
          lengths.set(last, lengths.get(last) + 1);
        } else {
          ways.add(way);
          lengths.add(1L);
        }
        now += switch (mode) {
          case SPIN -> spinNanos;
          case YIELD -> yieldNanos;
          case PARK -> parkNanos;
        };
        chooser.tick(now);
      }
      return this;
    }

    /** Lengths of the complete runs (the last, cut off by the end, left out) of {@code way}. */
    List<Long> runs(char way) {
      List<Long> out = new ArrayList<>();
      for (int i = 0; i < ways.size() - 1; i++) {
        if (ways.get(i) == way) {
          out.add(lengths.get(i));
        }
      }
      return out;
    }

    /** Calls made waiting {@code way}, the last run included. */
    long calls(char way) {
      long n = 0;
      for (int i = 0; i < ways.size(); i++) {
        if (ways.get(i) == way) {
          n += lengths.get(i);
        }
      }
      return n;
    }
  }

  /** The spans between measurements, in epochs: 4, 8, ... doubling up to the maximum. */
  static List<Long> spans(int count) {
    List<Long> out = new ArrayList<>();
    long span = WaitModeChooser.EXPLOIT_EPOCHS;
    for (int i = 0; i < count; i++) {
      out.add(span);
      span = Math.min(WaitModeChooser.MAX_EXPLOIT_EPOCHS, 2 * span);
    }
    return out;
  }

  @Test
  void aLoadedMachineParksAndWaitsActivelyOnlyInItsMeasurements() {
    // Waiting actively 3x slower than parking (yielding measured at load 30).
    Group g = new Group().run(2_000L * EPOCH, 60_000, 20_000);
    List<Long> active = g.runs('A');
    assertTrue(active.stream().allMatch(n -> n == EPOCH), "only measured active epochs: " + active);
    List<Long> parked = g.runs('P');
    List<Long> expected = spans(parked.size()).stream().map(s -> PARK_EPOCH + s * EPOCH).toList();
    assertEquals(expected, parked, "a measured parking epoch and the span after it, the span doubling");
    assertEquals(9, parked.size(), "measurements in 2,000 epochs");
  }

  @Test
  void anIdleMachineWaitsActivelyAndParksOnlyInItsMeasurements() {
    // Spinning 12x faster than parking (2 ranks, idle machine): parking is measured ever more rarely, and
    // each measurement stops once it cannot win: 2 parked calls (4 x 24,000 ns per epoch) reach the bar of
    // three quarters of the active epoch (96,000 ns).
    Group g = new Group().run(2_000L * EPOCH, 1_000, 12_000);
    List<Long> parked = g.runs('P');
    assertTrue(parked.stream().allMatch(n -> n == 2), "only measured parking epochs, each cut short: " + parked);
    List<Long> active = g.runs('A');
    List<Long> expected = new ArrayList<>(List.of((long) EPOCH)); // the first measurement's active epoch
    spans(active.size() - 1).forEach(s -> expected.add((s + 1) * EPOCH)); // a span, then a measured epoch
    assertEquals(expected, active);
    assertEquals(10, parked.size(), "measurements in 2,000 epochs' worth of calls");
  }

  @Test
  void parkingMustWinByAQuarter() {
    Group g = new Group().run(300L * EPOCH, 10_000, 8_000); // parking 20 % faster: noise
    // Each parking epoch ends after 30 calls: 30 x 8,000 x 4 = 960,000 ns, three quarters of the active epoch.
    assertTrue(g.runs('P').stream().allMatch(n -> n == 30), "parked only to measure: " + g.runs('P'));
    assertEquals(7, g.runs('P').size());
  }

  @Test
  void aChangeOfCostsFlipsTheChoiceAndShortensTheSpanAgain() {
    Group g = new Group().run(1_500L * EPOCH, 1_000, 12_000); // idle: spans grow to the maximum
    int before = g.ways.size();
    g.run(1_500L * EPOCH, 60_000, 20_000); // the machine became loaded
    List<Long> parkedAfter = new ArrayList<>();
    for (int i = before; i < g.ways.size() - 1; i++) {
      if (g.ways.get(i) == 'P') {
        parkedAfter.add(g.lengths.get(i));
      }
    }
    // The run in progress ends in a measurement that flips to parking; its span starts short again.
    List<Long> expected = spans(parkedAfter.size()).stream().map(s -> PARK_EPOCH + s * EPOCH).toList();
    assertEquals(expected, parkedAfter);
  }

  // A group exactly as large as the cores measures yielding (its default) and spinning against parking.
  static final List<Mode> YIELD_THEN_SPIN = List.of(Mode.YIELD, Mode.SPIN);

  @Test
  void membersOnCoresOfTheirOwnSpin() {
    // Measured on 2 cores with the two rank threads on separate cores: 0.3-0.7 µs spinning, 0.7-3 µs yielding.
    Group g = new Group(YIELD_THEN_SPIN).run(2_000L * EPOCH, 700, 2_000, 10_000);
    List<Long> spun = g.runs('S');
    List<Long> expected = new ArrayList<>(); // a measured epoch, then (after parking's) the span
    spans(spun.size()).forEach(s -> expected.addAll(List.of((long) EPOCH, s * EPOCH)));
    assertEquals(expected.subList(0, spun.size()), spun);
    assertTrue(g.runs('Y').stream().allMatch(n -> n == EPOCH), "yielded only to measure: " + g.runs('Y'));
    // Parking's bar is three quarters of the spinning epoch (67,200 ns): 2 parked calls at 4 x 10,000 pass it.
    assertTrue(g.runs('P').stream().allMatch(n -> n == 2), "parked only to measure, cut short: " + g.runs('P'));
    assertTrue(g.calls('S') > 30 * g.calls('Y'), "spun " + g.calls('S') + ", yielded " + g.calls('Y'));
  }

  @Test
  void membersSharingACoreYieldAndTheirSpinningMeasurementsEndEarly() {
    // Measured with both rank threads on one core: 60 µs spinning (the partner needs the core), 5 µs yielding.
    Group g = new Group(YIELD_THEN_SPIN).run(2_000L * EPOCH, 60_000, 5_000, 10_000);
    // The bar is three quarters of the yielding epoch, 480,000 ns: 8 spinning calls, 12 parked (x 4).
    assertTrue(g.runs('S').stream().allMatch(n -> n == 8), "spun only to measure, cut short: " + g.runs('S'));
    assertTrue(g.runs('P').stream().allMatch(n -> n == 12), "parked only to measure, cut short: " + g.runs('P'));
    List<Long> yielded = g.runs('Y');
    List<Long> expected = new ArrayList<>(List.of((long) EPOCH)); // the first measurement's yielding epoch
    spans(yielded.size() - 1).forEach(s -> expected.add((s + 1) * EPOCH)); // the span, then the next measurement
    assertEquals(expected, yielded);
  }

  @Test
  void spinningMustWinByAQuarterToo() {
    Group g = new Group(YIELD_THEN_SPIN).run(300L * EPOCH, 800, 1_000, 10_000); // spinning 20 % faster: noise
    // Each spinning epoch ends after 120 calls: 120 x 800 = 96,000 ns, three quarters of the yielding epoch.
    assertTrue(g.runs('S').stream().allMatch(n -> n == 120), "spun only to measure: " + g.runs('S'));
    assertEquals(7, g.runs('S').size());
  }

  @Test
  void aChooserNeedsActiveWaysOnly() {
    assertThrows(IllegalArgumentException.class, () -> new WaitModeChooser(List.of()));
    assertThrows(IllegalArgumentException.class, () -> new WaitModeChooser(List.of(Mode.SPIN, Mode.PARK)));
  }
}
