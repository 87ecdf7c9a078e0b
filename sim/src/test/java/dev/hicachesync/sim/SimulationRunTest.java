package dev.hicachesync.sim;

import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.workload.Request;
import dev.hicachesync.sim.workload.Workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.sync.Invariant;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** The step API ({@link SimulationRun}): same engine as {@link Simulator#run()}, checks per point, no hangs, no leftover threads. */
class SimulationRunTest {

  private static SimConfig.Builder small() {
    return SimConfig.builder().topology(Topology.of(1, 2, 2, 1)).steps(40).seed(3)
        .collectiveTimeout(Duration.ofMillis(1500));
  }

  /** Stepping a whole configuration point by point ends where {@code run()} does: the same statistics. */
  @Test
  void steppingToTheEndMatchesRun() {
    SimConfig cfg = small().build();
    SimStats whole = new Simulator(cfg).run().stats();
    try (SimulationRun run = Simulator.open(cfg)) {
      SimulationRun.Verdict v = run.verdict();
      while (!v.ended()) {
        v = run.advance();
        assertTrue(v.ok(), () -> "divergence: " + run.verdict());
      }
      assertTrue(v.points() > cfg.steps(), "one park per sync point, at least RECV per step: " + v.points());
      SimStats stepped = run.stats();
      assertTrue(whole.admitted() > 0 && whole.deviceToHostCopies() > 0, "the run did something: " + whole.describe());
      assertEquals(whole.admitted(), stepped.admitted());
      assertEquals(whole.finished(), stepped.finished());
      assertEquals(whole.hostHitTokens(), stepped.hostHitTokens());
      assertEquals(whole.storageHitTokens(), stepped.storageHitTokens());
      assertEquals(whole.collectives(), stepped.collectives());
      assertEquals(whole.prefetchesIssued(), stepped.prefetchesIssued());
    }
  }

  /** Views show where each rank is parked; environment commands act at the rank's next step; close ends every thread. */
  @Test
  void commandsActAndCloseLeavesNoThread() {
    Workload none = new Workload() {
      @Override
      public java.util.List<Request> arrivals(long step) {
        return java.util.List.of();
      }

      @Override
      public String describe() {
        return "none";
      }
    };
    SimulationRun run = Simulator.open(small().steps(1L << 40).workload((seed, dp) -> none).build());
    try {
      SimulationRun.RankView v0 = run.view(0);
      assertEquals(0, v0.step());
      assertEquals("sync point RECV", v0.point());
      run.advanceStep();
      long before = run.view(1).clock();
      run.delay(1, 500);
      run.advanceStep();
      assertTrue(run.view(1).clock() >= before + 500, "delay moved rank 1's clock: " + run.view(1));
      assertTrue(run.view(0).clock() < before + 500, "and only rank 1's: " + run.view(0));
      long at = run.arrive(0, step -> new Request("injected", new int[64], new int[16], 1, step, -1));
      assertEquals(run.view(0).step() + 1, at);
      assertEquals(0, run.stats().arrived());
      run.advanceStep(); // to RECV of the arrival step: arrivals are taken after it
      run.advanceStep();
      assertEquals(1, run.stats().arrived(), "the injected request arrived, once per replica");
      assertEquals(1, run.stats().admitted());
      assertTrue(run.verdict().ok(), "the fixed protocol holds: " + run.verdict());
      assertTrue(run.liveThreads() > 0);
    } finally {
      run.close();
    }
    assertEquals(0, run.liveThreads(), "close() left threads behind");
  }

  /**
   * Determinism: the same case (configuration and commands) run twice leaves every rank in the same state
   * (step, point, clock, tree digest, queues, prefetches, pools, pending I/O) with the same verdict.
   */
  @Test
  void sameCommandsSameStates() {
    dev.hicachesync.testing.QtRuns.qt().withExamples(10).forAll(StatefulSimTest.cases(SimGen.multiRankTopologies(),
        SimGen::fixedVersions, SimGen.policies(java.util.List.of(dev.hicachesync.controller.PrefetchPolicy.values()),
            java.util.List.of(dev.hicachesync.controller.WritePolicy.values()),
            java.util.List.of(StorageMode.MEMORY, StorageMode.OFF)),
        SimGen.env(1, 12), java.util.Set.of())).checkAssert(c -> assertEquals(states(c), states(c), c.encode()));
  }

  private static java.util.List<Object> states(StatefulCase c) {
    java.util.List<Object> out = new java.util.ArrayList<>();
    try (SimDriver d = new SimDriver(c, null)) {
      for (SimCommand cmd : c.commands()) {
        cmd.run(d);
      }
      SimulationRun.Verdict v = d.run().verdict();
      out.add(v.points());
      out.add(v.ok());
      for (int r = 0; r < d.run().ranks(); r++) {
        out.add(d.run().view(r));
      }
    }
    return out;
  }

  /** A broken protocol (B3) comes back from advance() as a verdict naming CollectiveMatching, not as a hang. */
  @Test
  void mismatchComesBackAsVerdict() {
    SimConfig cfg = small().steps(1L << 40).faults(EnumSet.of(Fault.SKIP_IDLE_WRITE_CHECK)).build();
    SimulationRun run = Simulator.open(cfg);
    SimulationRun.Verdict v;
    try {
      v = run.verdict();
      for (int i = 0; i < 200 && v.ok(); i++) {
        v = run.advanceStep();
      }
      assertNotNull(v.divergence(), "B3 went unnoticed for 200 steps");
      assertFalse(v.holds(Invariant.CollectiveMatching), v.divergence().describe());
      assertEquals(v, run.advance(), "nothing moves after a divergence");
    } finally {
      run.close();
    }
    assertEquals(0, run.liveThreads(), "close() left threads behind");
  }
}
