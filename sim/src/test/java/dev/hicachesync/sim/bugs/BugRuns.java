package dev.hicachesync.sim.bugs;

import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.Simulator;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

/** Shared knobs of the bug tests: short runs, short collective timeouts, pinned seeds. */
final class BugRuns {
  static final long STEPS = 2000;

  private BugRuns() {}

  static SimConfig.Builder base(long seed) {
    return SimConfig.builder().steps(STEPS).seed(seed).collectiveTimeout(Duration.ofSeconds(5));
  }

  static SimResult run(SimConfig.Builder b) {
    return new Simulator(b.build()).run();
  }

  static SimResult withFault(Fault f, long seed) {
    Set<Fault> faults = EnumSet.of(f);
    return run(base(seed).faults(faults));
  }
}
