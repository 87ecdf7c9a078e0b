package dev.hicachesync.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link WaitModeChooser} on a simulated clock: each call costs what the current way of waiting costs, and
 * the chooser must settle on the cheaper way, measuring the other once per span, a span that doubles while
 * the measurements confirm the choice. Checked on the runs of calls that waited the same way.
 */
class WaitModeChooserTest {
  static final int EPOCH = WaitModeChooser.EPOCH;
  static final int PARK_EPOCH = WaitModeChooser.PARK_EPOCH;

  /** A simulated group and the runs of consecutive calls that waited alike ('A'ctive or 'P'arking). */
  static final class Group {
    final WaitModeChooser chooser = new WaitModeChooser();
    final List<Character> ways = new ArrayList<>();
    final List<Long> lengths = new ArrayList<>();
    long now;

    Group() {
      chooser.tick(now); // the first call starts the clock
    }

    /** Runs {@code calls} calls at these per-call costs. */
    Group run(long calls, long activeNanos, long parkNanos) {
      for (long i = 0; i < calls; i++) {
        boolean park = chooser.parking();
        char way = park ? 'P' : 'A';
        int last = ways.size() - 1;
        if (last >= 0 && ways.get(last) == way) {
          lengths.set(last, lengths.get(last) + 1);
        } else {
          ways.add(way);
          lengths.add(1L);
        }
        now += park ? parkNanos : activeNanos;
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
    // Spinning 12x faster than parking (2 ranks, idle machine): parking is measured ever more rarely.
    Group g = new Group().run(2_000L * EPOCH, 1_000, 12_000);
    List<Long> parked = g.runs('P');
    assertTrue(parked.stream().allMatch(n -> n == PARK_EPOCH), "only measured parking epochs: " + parked);
    List<Long> active = g.runs('A');
    List<Long> expected = new ArrayList<>(List.of((long) EPOCH)); // the first measurement's active epoch
    spans(active.size() - 1).forEach(s -> expected.add((s + 1) * EPOCH)); // a span, then a measured epoch
    assertEquals(expected, active);
    assertEquals(10, parked.size(), "measurements in 2,000 epochs' worth of calls");
  }

  @Test
  void parkingMustWinByAQuarter() {
    Group g = new Group().run(300L * EPOCH, 10_000, 8_000); // parking 20 % faster: noise
    assertTrue(g.runs('P').stream().allMatch(n -> n == PARK_EPOCH), "parked only to measure: " + g.runs('P'));
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
}
