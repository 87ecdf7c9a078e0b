package dev.hicachesync.report;

import java.util.List;

/** Formats a capacity sweep as a fixed-width table, one row per (write policy, host ratio). */
public final class SweepTable {

  private SweepTable() {}

  /** Formats {@code points} in the given order under a header line, one line each. */
  public static String format(List<SweepPoint> points) {
    StringBuilder out = new StringBuilder();
    out.append(String.format("%-24s %10s %8s %8s %8s %8s%n",
        "write policy", "host ratio", "L1", "L2", "L3", "total"));
    for (SweepPoint p : points) {
      out.append(String.format("%-24s %10s %8.4f %8.4f %8.4f %8.4f%n", p.writePolicy(),
          ratio(p.hostRatio()), p.l1(), p.l2(), p.l3(), p.total()));
    }
    return out.toString();
  }

  /** The same rows as CSV (header line first), for plotting elsewhere or re-drawing. */
  public static String csv(List<SweepPoint> points) {
    StringBuilder out = new StringBuilder("write_policy,host_ratio,l1,l2,l3,total\n");
    for (SweepPoint p : points) {
      out.append(String.format(java.util.Locale.ROOT, "%s,%s,%.6f,%.6f,%.6f,%.6f%n", p.writePolicy(),
          ratio(p.hostRatio()), p.l1(), p.l2(), p.l3(), p.total()));
    }
    return out.toString();
  }

  private static String ratio(double r) {
    return r == Math.rint(r) ? String.valueOf((long) r) : String.valueOf(r);
  }
}
