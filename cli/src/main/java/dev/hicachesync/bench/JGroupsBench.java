package dev.hicachesync.bench;

import dev.hicachesync.cluster.AllReduceBench;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToDoubleFunction;

/**
 * The all-reduce across rank processes (JGroups over loopback TCP, {@link AllReduceBench}: W probe JVMs) next to
 * the in-JVM fabric's at the same W, measured in the same run. Two rows per W: the median call, and the 99th
 * percentile (what a step waits for when it is unlucky). The processes time their own calls (JMH cannot
 * time calls made in other JVMs); the in-JVM figure is {@link CollectiveBenchmark}'s. Starts W JVMs per
 * world, so only on request ({@code bench --only jgroups}), never in the default run.
 */
final class JGroupsBench {
  private JGroupsBench() {}

  /**
   * @param inJvmNanos the in-JVM fabric's nanoseconds per all-reduce call at a world size
   * @param calls all-reduce calls each process times
   */
  static List<BenchRow> run(int[] worlds, IntToDoubleFunction inJvmNanos, int calls) throws Exception {
    List<BenchRow> rows = new ArrayList<>();
    for (int w : worlds) {
      double inJvm = inJvmNanos.applyAsDouble(w);
      AllReduceBench.Row r = AllReduceBench.measure(w, calls, Math.max(100, calls / 5));
      rows.add(new BenchRow("JGroups all-reduce MIN 8 longs p50, " + w + " processes", r.p50() * 1e3,
          "in-JVM fabric, " + w + " ranks (mean)", inJvm, "call", ""));
      rows.add(new BenchRow("JGroups all-reduce MIN 8 longs p99, " + w + " processes", r.p99() * 1e3,
          "in-JVM fabric, " + w + " ranks (mean)", inJvm, "call", ""));
    }
    return rows;
  }
}
