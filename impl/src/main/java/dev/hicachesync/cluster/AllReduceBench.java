package dev.hicachesync.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The all-reduce of 8 longs across W rank processes on this machine ({@link AllReduceProbe} in each), for
 * W given on the command line: one row per W with rank 0's p50 and p99 and the slowest rank's p99, in µs.
 * Args: calls W... (e.g. {@code 2000 2 4 8}).
 */
public final class AllReduceBench {
  private AllReduceBench() {}

  /** One row: the world size and its latencies in µs. */
  public record Row(int world, double p50, double p99, double worstP99) {}

  public static void main(String[] args) throws Exception {
    int calls = Integer.parseInt(args[0]);
    System.out.println("processes  p50 µs  p99 µs  worst-rank p99 µs   (all-reduce MIN of 8 longs, JGroups TCP on loopback)");
    for (int i = 1; i < args.length; i++) {
      Row row = measure(Integer.parseInt(args[i]), calls, Math.max(100, calls / 5));
      System.out.printf("%9d  %6.1f  %6.1f  %17.1f%n", row.world(), row.p50(), row.p99(), row.worstP99());
    }
  }

  /** Runs one world of {@code world} probe processes and returns its row. */
  public static Row measure(int world, int calls, int warmup) throws IOException, InterruptedException {
    try (LocalWorld w = LocalWorld.start(world, AllReduceProbe.class.getName(), List.of("-XX:+UseSerialGC", "-Xmx256m"),
        (rank, ports, cluster) -> {
          List<String> a = new ArrayList<>(List.of(String.valueOf(world), String.valueOf(rank),
              String.valueOf(calls), String.valueOf(warmup), cluster));
          ports.forEach(p -> a.add(String.valueOf(p)));
          return a;
        })) {
      List<LocalWorld.RankExit> exits = w.await(Duration.ofMinutes(5), Duration.ofSeconds(5));
      double p50 = 0;
      double p99 = 0;
      double worst = 0;
      for (LocalWorld.RankExit e : exits) {
        if (e.exitCode() != 0 || e.output().isEmpty()) {
          throw new IllegalStateException("probe rank " + e.rank() + " exited " + e.exitCode() + ": " + e.output());
        }
        String[] f = e.output().get(e.output().size() - 1).trim().split(" ");
        if (e.rank() == 0) {
          p50 = Double.parseDouble(f[0]);
          p99 = Double.parseDouble(f[1]);
        }
        worst = Math.max(worst, Double.parseDouble(f[1]));
      }
      return new Row(world, p50, p99, worst);
    }
  }
}
