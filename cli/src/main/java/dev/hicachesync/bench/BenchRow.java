package dev.hicachesync.bench;

import java.util.Locale;

/**
 * One line of the bench table: a figure and its baseline, both as time per operation, measured in the
 * same run.
 *
 * @param area what is measured, e.g. {@code all-reduce MIN 8 longs, 4 ranks}
 * @param nanosPerOp the project's cost per operation
 * @param baseline what the baseline is, e.g. {@code CyclicBarrier exchange}
 * @param baselineNanosPerOp the baseline's cost per operation of the same work
 * @param unit what one operation is (e.g. {@code call}, {@code 4 KiB page}, {@code step})
 * @param target the target in words ({@code ""} when there is none)
 */
public record BenchRow(String area, double nanosPerOp, String baseline, double baselineNanosPerOp, String unit,
    String target) {

  /** Returns the project's speed relative to the baseline: 1.0 = as fast, 4.0 = a quarter of its cost. */
  public double speedVsBaseline() {
    return baselineNanosPerOp / nanosPerOp;
  }

  /** Formats a cost per operation with a unit that keeps 3 significant digits readable. */
  static String time(double nanos) {
    if (nanos < 10_000) {
      return String.format(Locale.ROOT, "%.2f µs", nanos / 1e3);
    }
    if (nanos < 10_000_000) {
      return String.format(Locale.ROOT, "%.1f µs", nanos / 1e3);
    }
    return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
  }
}
