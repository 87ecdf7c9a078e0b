package dev.hicachesync.bench;

import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.Simulator;
import dev.hicachesync.topology.Topology;

/**
 * Simulator steps per second (synthetic workload, seed 7, defaults of {@code simulate}) at a topology,
 * against the same run on one rank: the ratio is what the extra ranks (threads, collectives, the
 * per-domain checks) cost on this machine.
 */
final class SimBench {
  private SimBench() {}

  /** Nanoseconds per scheduler step of {@code steps} steps at {@code topology} (after a warm-up run). */
  static double nanosPerStep(Topology topology, long steps) {
    run(topology, Math.max(50, steps / 4)); // warm-up
    long t0 = System.nanoTime();
    SimResult r = run(topology, steps);
    long elapsed = System.nanoTime() - t0;
    if (!r.ok()) {
      throw new IllegalStateException("simulator benchmark run diverged: " + r.divergence());
    }
    return elapsed / (double) steps;
  }

  private static SimResult run(Topology topology, long steps) {
    return new Simulator(SimConfig.builder().topology(topology).steps(steps).seed(7).build()).run();
  }

  /** Returns e.g. {@code cp2 tp2}, naming only the dimensions above 1. */
  static String label(Topology t) {
    StringBuilder b = new StringBuilder();
    append(b, "dp", t.dp());
    append(b, "cp", t.cp());
    append(b, "tp", t.tp());
    append(b, "pp", t.pp());
    return b.length() == 0 ? "1 rank" : b.toString();
  }

  private static void append(StringBuilder b, String name, int size) {
    if (size > 1) {
      b.append(b.length() == 0 ? "" : " ").append(name).append(size);
    }
  }

  static BenchRow row(Topology topology, long steps, double oneRankNanos) {
    return new BenchRow("simulator, " + topology.worldSize() + " ranks (" + label(topology) + ")",
        nanosPerStep(topology, steps), "the same run on 1 rank", oneRankNanos, "step", "");
  }
}
