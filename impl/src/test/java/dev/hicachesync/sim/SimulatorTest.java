package dev.hicachesync.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * The simulator as an oracle: the fixed protocol never diverges, runs are reproducible, and every broken
 * twin (legacy version, injected fault) is caught with the invariant it breaks.
 */
class SimulatorTest {
  private static final long STEPS = 1500;

  private static SimConfig.Builder base() {
    return SimConfig.builder().steps(STEPS).hostPages(256).collectiveTimeout(Duration.ofSeconds(5));
  }

  static Stream<Arguments> fixedConfigurations() {
    return Stream.of(
        Arguments.of(Topology.of(1, 2, 2, 1), ProtocolVersion.MERGED, PrefetchPolicy.TIMEOUT, WritePolicy.WRITE_THROUGH, 1L),
        Arguments.of(Topology.of(1, 2, 1, 1), ProtocolVersion.MERGED, PrefetchPolicy.WAIT_COMPLETE, WritePolicy.WRITE_THROUGH_SELECTIVE, 2L),
        Arguments.of(Topology.of(1, 2, 1, 1), ProtocolVersion.POST20460, PrefetchPolicy.BEST_EFFORT, WritePolicy.WRITE_BACK, 3L),
        Arguments.of(Topology.of(2, 1, 2, 1), ProtocolVersion.POST20460, PrefetchPolicy.TIMEOUT, WritePolicy.WRITE_THROUGH, 4L),
        Arguments.of(Topology.of(1, 2, 1, 2), ProtocolVersion.MERGED, PrefetchPolicy.TIMEOUT, WritePolicy.WRITE_THROUGH, 5L),
        Arguments.of(Topology.of(1, 1, 2, 1), ProtocolVersion.PRE20460, PrefetchPolicy.WAIT_COMPLETE, WritePolicy.WRITE_THROUGH, 6L));
  }

  /** The fixed versions (and the legacy one without CP) hold on several topologies, policies and seeds. */
  @ParameterizedTest
  @MethodSource("fixedConfigurations")
  void fixedProtocolNeverDiverges(Topology t, ProtocolVersion v, PrefetchPolicy p, WritePolicy w, long seed) {
    SimResult r = new Simulator(base().topology(t).version(v).prefetchPolicy(p).writePolicy(w).seed(seed)
        .build()).run();
    assertTrue(r.ok(), () -> "Failed on seed " + seed + "\n" + r.divergence().describe());
    assertEquals(STEPS, r.stepsCompleted());
    assertTrue(r.stats().admitted > 100, r.stats()::describe);
    assertTrue(r.stats().deviceToHostCopies > 0, r.stats()::describe);
  }

  /** The storage prefetch path runs end to end: prefetches complete and serve L3 hits. */
  @Test
  void prefetchesCompleteAndHit() {
    SimResult r = new Simulator(base().steps(3000).prefetchPolicy(PrefetchPolicy.WAIT_COMPLETE).build()).run();
    assertTrue(r.ok(), () -> r.divergence().describe());
    assertTrue(r.stats().prefetchesCompleted > 0, r.stats()::describe);
    assertTrue(r.stats().storageHitTokens > 0, r.stats()::describe);
    assertTrue(r.stats().prefetchesRevoked > 0, r.stats()::describe);
  }

  /** The same seed twice gives the same statistics and the same final trees. */
  @Test
  void sameSeedSameRun() {
    SimConfig cfg = base().prefetchPolicy(PrefetchPolicy.TIMEOUT).seed(11).build();
    SimResult a = new Simulator(cfg).run();
    SimResult b = new Simulator(cfg).run();
    assertTrue(a.ok() && b.ok());
    assertEquals(a.stats().describe(), b.stats().describe());
    assertEquals(a.finalDigests(), b.finalDigests());
    SimResult c = new Simulator(base().prefetchPolicy(PrefetchPolicy.TIMEOUT).seed(12).build()).run();
    assertFalse(a.finalDigests().equals(c.finalDigests()), "another seed, another run");
  }

  /** B1 (#20460): {@code pre20460} with cp=2, attn_tp=1 syncs nothing; R0 pops a write ack alone at S1. */
  @Test
  void pre20460WithCpDivergesAtS1() {
    SimResult r = new Simulator(base().version(ProtocolVersion.PRE20460).topology(Topology.of(1, 2, 1, 1))
        .build()).run();
    assertNotNull(r.divergence(), "the legacy version must diverge under CP");
    assertEquals(Invariant.AckAgreement, r.divergence().invariant(), r.divergence()::describe);
    assertTrue(r.divergence().invariants().contains(Invariant.TreeAgreement));
    assertEquals("sync point S1", r.divergence().point());
  }

  /** Injected faults are opt-in: a default configuration runs the protocol as specified. */
  @Test
  void faultsAreOffByDefault() {
    assertTrue(base().build().faults().isEmpty());
  }

  static Stream<Arguments> faults() {
    return Stream.of(
        Arguments.of(Fault.SKIP_IDLE_WRITE_CHECK, ProtocolVersion.MERGED, Invariant.CollectiveMatching),
        Arguments.of(Fault.SKIP_IDLE_WRITE_CHECK, ProtocolVersion.POST20460, Invariant.CollectiveMatching),
        Arguments.of(Fault.UNSYNCED_LOADING_CHECK, ProtocolVersion.MERGED, Invariant.AckAgreement),
        Arguments.of(Fault.UNSYNCED_LOADING_CHECK, ProtocolVersion.POST20460, Invariant.AckAgreement),
        Arguments.of(Fault.EARLY_ADMISSION_EXIT, ProtocolVersion.MERGED, Invariant.CollectiveMatching),
        Arguments.of(Fault.EARLY_TAIL_RELEASE, ProtocolVersion.MERGED, Invariant.HostSlotSafety));
  }

  /** B3, B5, B10, B7: each injected bug is caught, and named by the invariant it breaks. */
  @ParameterizedTest
  @MethodSource("faults")
  void injectedFaultIsCaught(Fault fault, ProtocolVersion v, Invariant expected) {
    Set<Fault> faults = EnumSet.of(fault);
    SimResult r = new Simulator(base().version(v).faults(faults).prefetchPolicy(PrefetchPolicy.TIMEOUT)
        .build()).run();
    assertNotNull(r.divergence(), () -> fault + " was not caught in " + STEPS + " steps");
    assertEquals(expected, r.divergence().invariant(), r.divergence()::describe);
  }
}
