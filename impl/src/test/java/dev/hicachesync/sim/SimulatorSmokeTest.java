package dev.hicachesync.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A quick run of the default configuration: the slice every other simulator test builds on. */
class SimulatorSmokeTest {

  /** The default version on cp=2, tp=2 runs 2,000 steps without any divergence. */
  @Test
  void defaultRunHasNoDivergence() {
    SimResult r = new Simulator(SimConfig.builder().steps(2000).build()).run();
    assertTrue(r.ok(), () -> r.divergence().describe());
    assertTrue(r.stats().admitted > 100, () -> r.stats().describe());
  }
}
