package dev.hicachesync.cli;

import dev.hicachesync.topology.Topology;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.trace.RankLayout;
import dev.hicachesync.modelcheck.trace.TraceTable;
import java.io.PrintWriter;
import java.util.Locale;

/** Formatting shared by the {@code check} reports. */
final class Reports {

  private Reports() {}

  /** {@code 12,345}. */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** {@code 3.2 s}. */
  static String seconds(double s) {
    return String.format(Locale.ROOT, "%.1f s", s);
  }

  /** One line about a finished model, for the progress stream. */
  static String summary(String name, TlcResult r) {
    return String.format(Locale.ROOT, "[%s] %s: %s distinct states, depth %d, %s", name, r.verdict(),
        count(r.distinct()), r.depth(), seconds(r.seconds()));
  }

  /** Prints the counterexample of {@code r} as a per-rank table, or TLC's message for a failure. */
  static void details(PrintWriter out, String name, Topology topology, TlcResult r, int width) {
    if (r.trace().isPresent()) {
      out.println();
      out.println("== " + name + ": " + r.verdict() + " - counterexample of " + r.trace().get().length()
          + " states" + (r.log() == null ? "" : " (TLC output: " + r.log() + ")"));
      RankLayout layout = RankLayout.of(topology);
      out.print(TraceTable.render(r.trace().get(), layout, width));
    } else if (!r.message().isEmpty()) {
      out.println();
      out.println("== " + name + ": " + r.verdict() + ": " + r.message()
          + (r.log() == null ? "" : " (TLC output: " + r.log() + ")"));
    }
  }
}
