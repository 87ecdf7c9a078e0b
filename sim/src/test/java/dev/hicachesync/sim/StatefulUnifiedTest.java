package dev.hicachesync.sim;

import dev.hicachesync.sim.environment.Fault;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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
 * {@link StatefulSimTest}'s properties for version {@code unified} ({@code spec/HiCacheUnified.tla}):
 * generated command lists on every PP = 1 multi-rank topology, any policy; every invariant holds after every
 * command and the ranks drain; B10 under {@code timeout} must fail it, with its seed and replay line. The
 * unified bugs that need a failed read, a timeout or a runtime attach at the right moment are in {@code
 * sim.bugs.UnifiedBugsTest} (longer seeded runs: 20 generated command lists did not reach #36425's).
 */
class StatefulUnifiedTest {

  /** Today's protocol: every invariant at every lockstep point, and not vacuously (prefetches, L3 hits). */
  @Test
  void unifiedHoldsAtEveryLockstepPoint() {
    SimStats t = new SimStats();
    StatefulSimTest.assertHolds(StatefulSimTest.cases(topologies(), unified(), SimGen.anyPolicies(),
        SimGen.env(1, 12), Set.of()), t);
    String coverage = String.format("steps %d, admitted %d, finished %d, aborted %d, host-hit tokens %d,"
            + " storage-hit tokens %d, prefetches issued %d / terminated %d, failed reads %d",
        t.steps(), t.admitted(), t.finished(), t.aborted(), t.hostHitTokens(), t.storageHitTokens(), t.prefetchesIssued(),
        t.prefetchesTerminated(), t.storageReadFailures());
    System.out.println("stateful unified coverage: " + coverage);
    // Storage hits need a prefetch to pass S7, the hit drain, a completion sync and the ack drain before its
    // request is admitted: command lists of 40 rarely get there (UnifiedSimTest's longer runs do).
    assertTrue(t.admitted() > 0 && t.finished() > 0 && t.hostHitTokens() > 0 && t.prefetchesIssued() > 0
        && t.prefetchesTerminated() > 0, coverage);
  }

  /** Bounded liveness: after any command list the ranks fall quiet (acks, prefetches, slots, requests). */
  @Test
  void unifiedDrainsAfterAnyCommands() {
    QtRuns.qt().forAll(StatefulSimTest.cases(topologies(), unified(), SimGen.anyPolicies(), SimGen.env(2, 64),
        Set.of())).checkAssert(c -> {
          String failure = StatefulSimTest.run(c, null, Scenario.DRAIN_STEPS);
          if (failure != null) {
            fail(failure);
          }
        });
  }

  /** B10 (#30760, #33029 leaves unified on this path): a rank-local exit before S4 under {@code timeout}. */
  @Test
  void earlyAdmissionExitIsCaughtUnderTimeout() {
    StatefulSimTest.assertFails(Math.min(QtRuns.SHRINK_CYCLES, 6), Math.min(StatefulSimTest.MINIMIZE_RUNS, 12),
        StatefulSimTest.cases(topologies(), unified(), timeoutWithStorage(), SimGen.env(2, 32),
            Set.of(Fault.EARLY_ADMISSION_EXIT)), "CollectiveMatching", "TreeAgreement", "AllocAgreement");
  }

  /** Multi-rank sync domains of one stage: what {@code unified} covers. */
  static Gen<Topology> topologies() {
    return Generate.pick(SimGen.allTopologies(t -> t.cp() * t.tp() > 1 && t.pp() == 1));
  }

  private static Function<Topology, Gen<ProtocolVersion>> unified() {
    return t -> Generate.constant(ProtocolVersion.UNIFIED);
  }

  private static Gen<SimGen.Policies> timeoutWithStorage() {
    return SimGen.policies(List.of(PrefetchPolicy.TIMEOUT), List.of(WritePolicy.WRITE_THROUGH),
        List.of(StorageMode.MEMORY));
  }
}
