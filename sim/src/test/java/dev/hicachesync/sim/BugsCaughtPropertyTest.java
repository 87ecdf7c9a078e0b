package dev.hicachesync.sim;

import dev.hicachesync.sim.environment.Fault;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.testing.QtRuns;
import dev.hicachesync.topology.Topology;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The properties of {@link SimPropertyTest} catch real bugs: for each way to break the protocol,
 * the same property ({@link SimOracle#assertHolds}) must FAIL within the default number of examples, and
 * the failure must name the invariant the bug breaks. Each generator keeps only the preconditions of its
 * bug (e.g. CP for B1); everything else is generated as for the fixed protocol.
 *
 * <p>The failing run is shrunk (at most {@code hicache.qt.shrinkCycles} attempts) and printed with its seed
 * and replay line; the shrunk lines are pinned in {@link ReplayTest}.
 */
class BugsCaughtPropertyTest {

  /** B1 (#20460): {@code pre20460} under NSA CP (attn_tp = 1) syncs nothing across CP ranks. */
  @Test
  void pre20460WithCpViolatesAckAgreement() {
    Gen<Scenario> gen = SimGen.scenarios(Generate.pick(List.of(Topology.of(1, 2, 1, 1), Topology.of(2, 2, 1, 1))),
        t -> Generate.constant(ProtocolVersion.PRE20460), writeThrough(), SimGen.env(2, 32), SimGen.work(),
        Set.of());
    assertPropertyFails(gen, "AckAgreement", "TreeAgreement", "PrefetchAgreement");
  }

  /** B3 (#10127): {@code writing_check} returns before S1's all-reduce when nothing is ready on this rank. */
  @Test
  void skippedIdleWriteCheckViolatesCollectiveMatching() {
    Gen<Scenario> gen = SimGen.scenarios(SimGen.multiRankTopologies(), fixedNoLegacy(), writeThrough(),
        SimGen.env(2, 32), SimGen.work(), Set.of(Fault.SKIP_IDLE_WRITE_CHECK));
    assertPropertyFails(gen, "CollectiveMatching");
  }

  /** B5: {@code loading_check} pops this rank's own count of completed load acks. */
  @Test
  void unsyncedLoadingCheckViolatesAckAgreement() {
    Gen<Scenario> gen = SimGen.scenarios(SimGen.multiRankTopologies(), fixedNoLegacy(), writeThrough(),
        SimGen.env(1, 8), SimGen.work(), Set.of(Fault.UNSYNCED_LOADING_CHECK));
    assertPropertyFails(gen, "AckAgreement", "TreeAgreement");
  }

  /**
   * B10 (#30760): the admission loop exits on a rank-local "batch full" before the prefetch checks. The
   * ranks then admit different requests, which the checker sees at the end of the step ({@code
   * AllocAgreement}, the first lockstep point after the exit) unless a skipped S4/S5 collective mismatches
   * first ({@code CollectiveMatching}); the shrunk counterexample is one request on two PP stages.
   */
  @Test
  void earlyAdmissionExitIsCaught() {
    Gen<Scenario> gen = SimGen.scenarios(SimGen.multiRankTopologies(), fixedNoLegacy(),
        SimGen.policies(List.of(PrefetchPolicy.values()), List.of(WritePolicy.values()),
            List.of(StorageMode.MEMORY)),
        SimGen.env(2, 32), SimGen.work(), Set.of(Fault.EARLY_ADMISSION_EXIT));
    assertPropertyFails(gen, "CollectiveMatching", "AllocAgreement", "TreeAgreement");
  }

  /**
   * B7 before #27010 (bonus; {@link Fault#EARLY_TAIL_RELEASE}): a stopped prefetch hands back its unread
   * host slots while this rank's reader may still write them. Needs storage hits, so the storage is a
   * file backend preloaded per rank.
   */
  @Test
  void earlyTailReleaseViolatesHostSlotSafety() {
    Gen<Scenario> gen = SimGen.scenarios(SimGen.multiRankTopologies(), fixedNoLegacy(),
        SimGen.policies(List.of(PrefetchPolicy.values()), List.of(WritePolicy.values()),
            List.of(StorageMode.FILE)),
        SimGen.env(2, 32), SimGen.work(), SimGen.preload(), Set.of(Fault.EARLY_TAIL_RELEASE));
    // A local HostSlotSafety violation leaves the other ranks in a collective until the timeout: each
    // failing run costs ~2 timeouts, so this one shrinks less.
    assertPropertyFails(Math.min(QtRuns.SHRINK_CYCLES, 8), gen, "HostSlotSafety");
  }

  private static java.util.function.Function<Topology, Gen<ProtocolVersion>> fixedNoLegacy() {
    return t -> Generate.pick(List.of(ProtocolVersion.MERGED, ProtocolVersion.POST20460));
  }

  private static Gen<SimGen.Policies> writeThrough() {
    return SimGen.policies(List.of(PrefetchPolicy.values()),
        List.of(WritePolicy.WRITE_THROUGH, WritePolicy.WRITE_THROUGH_SELECTIVE),
        List.of(StorageMode.MEMORY, StorageMode.OFF));
  }

  /**
   * Asserts that the fixed-protocol property fails on {@code gen} within the default examples and that the
   * smallest counterexample's report names {@code expected} first (or one of {@code alsoAccepted}: a
   * shrunk schedule may surface the same bug through a consequence, e.g. a tree that differs because an
   * ack count did). Prints the report's head.
   */
  private static void assertPropertyFails(Gen<Scenario> gen, String expected, String... alsoAccepted) {
    assertPropertyFails(QtRuns.SHRINK_CYCLES, gen, expected, alsoAccepted);
  }

  private static void assertPropertyFails(int shrinkCycles, Gen<Scenario> gen, String expected,
      String... alsoAccepted) {
    AssertionError e = assertThrows(AssertionError.class,
        () -> QtRuns.qt().withShrinkCycles(shrinkCycles).forAll(gen).checkAssert(s -> SimOracle.assertHolds(s)),
        "the property held for " + QtRuns.EXAMPLES + " examples: the bug went unnoticed");
    String report = String.valueOf(e.getMessage());
    List<String> names = SimOracle.violated(report);
    System.out.println("Property failed as expected (wanted " + expected + "), violated " + names + ":\n"
        + report.lines().filter(l -> l.startsWith("replay: ")).findFirst().orElse("(no replay line)"));
    assertTrue(!names.isEmpty(), "the failure names no invariant:\n" + report);
    String first = names.get(0);
    boolean ok = first.equals(expected) || List.of(alsoAccepted).contains(first);
    assertTrue(ok, "expected " + expected + " to be violated, the smallest counterexample violates " + first
        + ":\n" + report);
  }
}
