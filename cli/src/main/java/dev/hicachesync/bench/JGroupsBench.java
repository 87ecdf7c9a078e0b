package dev.hicachesync.bench;

import dev.hicachesync.cluster.AllReduceBench;
import java.util.ArrayList;
import java.util.List;

/**
 * The all-reduce across rank processes (JGroups over loopback TCP, {@link AllReduceBench}: W probe JVMs) next to
 * the in-JVM fabric's at the same W, measured in the same run. Two rows per W: the median call, and the 99th
 * percentile (what a step waits for when it is unlucky). Starts W JVMs per world, so only on request
 * ({@code bench --only jgroups}), never in the default run.
 */
final class JGroupsBench {
  private JGroupsBench() {}

  static List<BenchRow> run(int[] worlds, int calls, int rounds) throws Exception {
    List<BenchRow> rows = new ArrayList<>();
    for (int w : worlds) {
      double inJvm = CollectiveBench.time(w, rounds, CollectiveBench.fabric(w, true));
      AllReduceBench.Row r = AllReduceBench.measure(w, calls, Math.max(100, calls / 5));
      rows.add(new BenchRow("JGroups all-reduce MIN 8 longs p50, " + w + " processes", r.p50() * 1e3,
          "in-JVM fabric, " + w + " ranks (mean)", inJvm, "call", ""));
      rows.add(new BenchRow("JGroups all-reduce MIN 8 longs p99, " + w + " processes", r.p99() * 1e3,
          "in-JVM fabric, " + w + " ranks (mean)", inJvm, "call", ""));
    }
    return rows;
  }
}
