package dev.hicachesync.sim;

import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.environment.Timing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.env.TransferKind;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

  /**
   * The fixed versions (and the legacy one without CP) hold on several topologies, policies and seeds,
   * and after a drain every rank is quiet with no page leaked (bounded liveness, INV-7).
   */
  @ParameterizedTest
  @MethodSource("fixedConfigurations")
  void fixedProtocolNeverDiverges(Topology t, ProtocolVersion v, PrefetchPolicy p, WritePolicy w, long seed) {
    SimResult r = new Simulator(base().topology(t).version(v).prefetchPolicy(p).writePolicy(w).seed(seed)
        .drainSteps(400).build()).run();
    assertTrue(r.divergence() == null, () -> "Failed on seed " + seed + "\n" + r.divergence().describe());
    assertEquals(List.of(), r.quiescence(), "after the drain: nothing in flight, nothing leaked");
    assertEquals(STEPS, r.stepsCompleted());
    assertTrue(r.stats().admitted() > 100, r.stats()::describe);
    assertTrue(r.stats().deviceToHostCopies() > 0, r.stats()::describe);
  }

  /** The storage prefetch path runs end to end: prefetches complete and serve L3 hits. */
  @Test
  void prefetchesCompleteAndHit() {
    SimResult r = new Simulator(base().steps(3000).prefetchPolicy(PrefetchPolicy.WAIT_COMPLETE).build()).run();
    assertTrue(r.ok(), () -> r.divergence().describe());
    assertTrue(r.stats().prefetchesCompleted() > 0, r.stats()::describe);
    assertTrue(r.stats().storageHitTokens() > 0, r.stats()::describe);
    assertTrue(r.stats().prefetchesRevoked() > 0, r.stats()::describe);
  }

  static Stream<Topology> determinismTopologies() {
    return Stream.of(Topology.of(1, 2, 2, 1), Topology.of(2, 2, 1, 1), Topology.of(1, 2, 1, 2));
  }

  /**
   * The same seed twice gives the same statistics and the same final trees, whatever the threads did;
   * another seed gives another run.
   */
  @ParameterizedTest
  @MethodSource("determinismTopologies")
  void sameSeedSameRun(Topology t) {
    SimConfig cfg = base().topology(t).prefetchPolicy(PrefetchPolicy.TIMEOUT).seed(11).build();
    SimResult a = new Simulator(cfg).run();
    SimResult b = new Simulator(cfg).run();
    assertTrue(a.ok() && b.ok());
    assertEquals(a.stats().describe(), b.stats().describe());
    assertEquals(a.finalDigests(), b.finalDigests());
    assertEquals(t.dp(), a.finalDigests().size(), "one digest per sync domain");
    SimResult c = new Simulator(base().topology(t).prefetchPolicy(PrefetchPolicy.TIMEOUT).seed(12).build()).run();
    assertFalse(a.finalDigests().equals(c.finalDigests()), "another seed, another run");
  }

  /**
   * The stepped controller work gives the same run on the rank threads as on the controller threads: the
   * same statistics, final trees and digest logs (every rank, every lockstep point), storage reads, writes
   * and prefetch passes included. Why: the simulator picks either by the machine's processors.
   */
  @Test
  void rankThreadsOrControllerThreadsGiveTheSameRun(@TempDir Path dir) throws IOException {
    SimConfig cfg = base().topology(Topology.of(1, 2, 2, 1)).prefetchPolicy(PrefetchPolicy.TIMEOUT).seed(21)
        .readFailure(0.05).build();
    SimResult threads = new Simulator(cfg).inlineRankThreads(false).withDigestLogs(dir.resolve("threads")).run();
    SimResult inline = new Simulator(cfg).inlineRankThreads(true).withDigestLogs(dir.resolve("inline")).run();
    assertTrue(threads.ok() && inline.ok());
    assertTrue(threads.stats().storageReadPages() > 0 && threads.stats().storageWritePages() > 0,
        threads.stats()::describe);
    assertEquals(threads.stats().describe(), inline.stats().describe());
    assertEquals(threads.finalDigests(), inline.finalDigests());
    for (int r = 0; r < 4; r++) {
      String name = DigestLog.fileName(r);
      assertEquals(Files.readString(dir.resolve("threads").resolve(name)),
          Files.readString(dir.resolve("inline").resolve(name)), name);
    }
  }

  /** The default choice: inline when the rank threads fill the processors; the setting can force either. */
  @Test
  void stepsRunInlineWhenTheRanksFillTheProcessors() {
    assertTrue(Simulator.inlineRankThreads("auto", 4, 2));
    assertTrue(Simulator.inlineRankThreads("auto", 2, 2));
    assertFalse(Simulator.inlineRankThreads("auto", 1, 2));
    assertFalse(Simulator.inlineRankThreads("auto", 4, 16));
    assertFalse(Simulator.inlineRankThreads("false", 8, 2));
    assertTrue(Simulator.inlineRankThreads("true", 1, 16));
  }

  /** A scripted schedule: rank 0's copies finish at once, every other rank's take 5 ticks; no failures. */
  private static Timing.Factory skewed() {
    return (seed, rank, readFailure) -> new Timing() {
      @Override
      public long copyTicks(TransferKind kind, int pages) {
        return rank == 0 ? 0 : 5;
      }

      @Override
      public long backgroundTicks(TransferKind kind, int pages) {
        return rank == 0 ? 1 : 7;
      }

      @Override
      public boolean readFails() {
        return false;
      }

      @Override
      public boolean localBatchFull() {
        return false;
      }
    };
  }

  /** The timing seam: a scripted skew breaks the legacy version under CP, never the merged one. */
  @Test
  void scriptedTimingDrivesTheOutcome() {
    Topology t = Topology.of(1, 2, 1, 1);
    SimResult legacy = new Simulator(base().topology(t).version(ProtocolVersion.PRE20460).timing(skewed())
        .build()).run();
    assertNotNull(legacy.divergence());
    assertEquals(0, legacy.divergence().rankA());
    SimResult merged = new Simulator(base().topology(t).timing(skewed()).drainSteps(300).build()).run();
    assertTrue(merged.ok(), () -> merged.divergence() + " " + merged.quiescence());
    assertEquals(0, merged.stats().storageReadFailures());
  }

  /** Two runs of one seed write byte-identical event logs (the "run a seed twice and diff" check). */
  @Test
  void sameSeedSameEventLog(@TempDir Path dir) throws IOException {
    Path a = dir.resolve("a.log");
    Path b = dir.resolve("b.log");
    new Simulator(base().steps(400).prefetchPolicy(PrefetchPolicy.TIMEOUT).logFile(a).build()).run();
    new Simulator(base().steps(400).prefetchPolicy(PrefetchPolicy.TIMEOUT).logFile(b).build()).run();
    List<String> la = Files.readAllLines(a);
    assertTrue(la.size() > 400 * 4, "a RECV line per rank and step, at least");
    assertTrue(la.get(0).startsWith("step=0 tick=1 rank=0 RECV"), la.get(0));
    assertEquals(la, Files.readAllLines(b));
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
