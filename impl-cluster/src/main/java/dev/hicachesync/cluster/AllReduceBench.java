package dev.hicachesync.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The all-reduce of 8 longs across W rank processes on this machine ({@link AllReduceProbe} in each): rank 0's
 * p50 and p99 and the slowest rank's p99, in µs. What {@code ./hicache-sync bench --only jgroups} prints beside
 * the in-JVM fabric's figures; a library call, not a program (the bench command is the way to run it).
 */
public final class AllReduceBench {
  private AllReduceBench() {}

  /** One row: the world size and its latencies in µs. */
  public record Row(int world, double p50, double p99, double worstP99) {}

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
