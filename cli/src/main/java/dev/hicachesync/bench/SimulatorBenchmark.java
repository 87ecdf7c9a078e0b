package dev.hicachesync.bench;

import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.Simulator;
import dev.hicachesync.topology.Topology;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * One simulator run (synthetic workload, seed 7, the defaults of {@code simulate}) of {@code steps} steps at a
 * topology, timed whole; the cost per step is the score divided by {@code steps}. Beside the same run on one
 * rank, the ratio is what the extra ranks (threads, collectives, the per-domain checks) cost on this machine.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SimulatorBenchmark {

  /** dp,cp,tp,pp. */
  @Param({"1,1,1,1", "1,2,2,1", "1,2,4,1"})
  public String topology;

  @Param({"3000"})
  public long steps;

  @Benchmark
  public SimResult run() {
    String[] s = topology.split(",");
    Topology t = Topology.of(Integer.parseInt(s[0]), Integer.parseInt(s[1]), Integer.parseInt(s[2]),
        Integer.parseInt(s[3]));
    SimResult r = new Simulator(SimConfig.builder().topology(t).steps(steps).seed(7).build()).run();
    if (!r.ok()) {
      throw new IllegalStateException("simulator benchmark run diverged: " + r.divergence());
    }
    return r;
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
}
