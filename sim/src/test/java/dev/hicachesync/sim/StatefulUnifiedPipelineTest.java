package dev.hicachesync.sim;

import dev.hicachesync.sim.environment.Fault;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.testing.QtRuns;
import dev.hicachesync.topology.Topology;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * {@link StatefulSimTest}'s properties for version {@code unified} with pipeline stages ({@code
 * spec/HiCacheUnifiedPipeline.tla}): generated command lists on every PP = 2 topology, any policy; every
 * invariant holds after every command; {@code pp_drain_nowait} (F2) must fail it, with its seed and replay
 * line.
 */
class StatefulUnifiedPipelineTest {

  /** Unified with stages: every invariant at every lockstep point, and not vacuously. */
  @Test
  void unifiedWithStagesHoldsAtEveryLockstepPoint() {
    SimStats t = new SimStats();
    StatefulSimTest.assertHolds(StatefulSimTest.cases(topologies(), unified(), SimGen.anyPolicies(),
        SimGen.env(1, 12), Set.of()), t);
    String coverage = String.format("steps %d, admitted %d, finished %d, prefetches issued %d / terminated %d,"
        + " storage-hit tokens %d", t.steps(), t.admitted(), t.finished(), t.prefetchesIssued(), t.prefetchesTerminated(),
        t.storageHitTokens());
    System.out.println("stateful unified pp coverage: " + coverage);
    assertTrue(t.admitted() > 0 && t.finished() > 0 && t.prefetchesIssued() > 0, coverage);
  }

  /** F2: a later stage that drains stage 0's forwarded counts with {@code get_nowait} is caught. */
  @Test
  void nowaitDrainIsCaught() {
    StatefulSimTest.assertFails(Math.min(QtRuns.SHRINK_CYCLES, 6), Math.min(StatefulSimTest.MINIMIZE_RUNS, 12),
        StatefulSimTest.cases(topologies(), unified(), timeoutWithStorage(), SimGen.env(2, 32),
            Set.of(Fault.PP_DRAIN_NOWAIT)), "TreeAgreement", "CollectiveMatching", "AckAgreement",
        "PrefetchAgreement", "AllocAgreement");
  }

  /** Every topology with two pipeline stages (PP x CP x TP up to the generator's world limit). */
  static Gen<Topology> topologies() {
    return Generate.pick(SimGen.allTopologies(t -> t.pp() == 2 && t.dp() == 1));
  }

  private static Function<Topology, Gen<ProtocolVersion>> unified() {
    return t -> Generate.constant(ProtocolVersion.UNIFIED);
  }

  private static Gen<SimGen.Policies> timeoutWithStorage() {
    return SimGen.policies(List.of(PrefetchPolicy.TIMEOUT), List.of(WritePolicy.WRITE_THROUGH),
        List.of(StorageMode.MEMORY));
  }
}
