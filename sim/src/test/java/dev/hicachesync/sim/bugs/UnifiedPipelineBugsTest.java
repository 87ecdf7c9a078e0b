package dev.hicachesync.sim.bugs;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.topology.Topology;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.ProtocolVersion;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Version {@code unified} with pipeline stages ({@code spec/HiCacheUnifiedPipeline.tla}, docs/explanation/pipeline.md):
 * stage 0 reduces the one S123 vector and forwards it; a later stage drains exactly those counts, waiting for
 * its own storage threads. The bug TLC found ({@code unipp_forwarded_nowait}, F2: a later stage drains with
 * {@code get_nowait}) must be caught and named; its twin (the same late threads, the blocking drain) must run
 * clean. PP 2 x CP 2, seeds pinned.
 */
class UnifiedPipelineBugsTest {
  private static final Topology PP2_CP2 = Topology.of(1, 2, 1, 2);

  private static SimResult run(long seed, PrefetchPolicy policy, long drain, Fault... faults) {
    return BugRuns.run(BugRuns.base(seed).topology(PP2_CP2).version(ProtocolVersion.UNIFIED)
        .prefetchPolicy(policy).drainSteps(drain)
        .faults(faults.length == 0 ? EnumSet.noneOf(Fault.class) : EnumSet.of(faults[0], faults)));
  }

  private static void clean(SimResult r) {
    assertNull(r.divergence(), () -> r.divergence().describe());
    assertTrue(r.quiescence().isEmpty(), () -> String.join("\n", r.quiescence()));
  }

  /** The protocol with PP (was refused before): no divergence, every rank quiet, L3 hits really happen. */
  @ParameterizedTest
  @CsvSource({"7, TIMEOUT", "11, WAIT_COMPLETE", "5, BEST_EFFORT"})
  void unifiedWithPipelineStagesRunsCleanAndHitsStorage(long seed, PrefetchPolicy policy) {
    SimResult r = run(seed, policy, 300);
    clean(r);
    assertTrue(r.stats().storageHitTokens() > 0, r.stats()::describe);
  }

  /**
   * F2 ({@code unipp_forwarded_nowait}, TreeAgreement in TLC): the later stage's prefetch thread queues its
   * S7 outcomes late; draining stage 0's count with {@code get_nowait} skips them there, so the stages'
   * trees part (or the pipeline hangs, #34568's symptom). Found where the drain differs: ranks 2, 3.
   */
  @ParameterizedTest
  @CsvSource({"7", "11", "13"})
  void nowaitDrainOnALaterStageIsCaught(long seed) {
    SimResult r = run(seed, PrefetchPolicy.TIMEOUT, 0, Fault.PP_DRAIN_NOWAIT);
    assertNotNull(r.divergence(), "the bug went unnoticed: " + r.stats().describe());
    assertTrue(List.of(Invariant.TreeAgreement, Invariant.AckAgreement, Invariant.PrefetchAgreement,
        Invariant.AllocAgreement, Invariant.CollectiveMatching).contains(r.divergence().invariant()),
        r.divergence()::describe);
    // Named on a later-stage rank (the trees part there), or as the pipeline hang it leads to: stage 0 waits
    // at RECV for ranks 2 and 3, which wait for a pipe message of a step stage 0 never reached.
    String why = r.divergence().describe();
    assertTrue(r.divergence().rankA() >= 2 || r.divergence().rankB() >= 2 || why.contains("missing rank(s) 2,3"),
        why);
  }

  /** The fix under the same late threads: the later stage waits for its own entries; clean, with hits. */
  @ParameterizedTest
  @CsvSource({"7", "11", "13"})
  void blockingDrainUnderTheSameLateThreadsIsClean(long seed) {
    SimResult r = run(seed, PrefetchPolicy.TIMEOUT, 300, Fault.PP_DRAIN_BLOCKING);
    clean(r);
    assertTrue(r.stats().storageHitTokens() > 0, r.stats()::describe);
  }

  /**
   * The drain before #37562 ({@code unipp_stage_local_drain}, fault {@code pp_drain_stage_local}): each stage's
   * scheduler decides S123 over its own grid, so a later stage whose storage threads are behind drains fewer
   * entries than stage 0 and the stages' prefetch decisions and trees part.
   */
  @Test
  void aStageLocalDrainIsCaught() {
    SimResult r = run(7, PrefetchPolicy.TIMEOUT, 0, Fault.PP_DRAIN_STAGE_LOCAL);
    assertNotNull(r.divergence(), "the bug went unnoticed: " + r.stats().describe());
    assertTrue(List.of(Invariant.PrefetchAgreement, Invariant.TreeAgreement, Invariant.AckAgreement,
        Invariant.CollectiveMatching).contains(r.divergence().invariant()), r.divergence()::describe);
  }

  /** A PP drain fault without stages, or outside unified, is refused with one line. */
  @Test
  void ppDrainFaultsNeedStagesAndUnified() {
    IllegalArgumentException noStages = assertThrows(IllegalArgumentException.class,
        () -> BugRuns.base(7).version(ProtocolVersion.UNIFIED).faults(EnumSet.of(Fault.PP_DRAIN_NOWAIT)).build());
    assertTrue(noStages.getMessage().contains("needs pipeline stages"), noStages.getMessage());
    assertTrue(noStages.getMessage().lines().count() == 1, noStages.getMessage());
    IllegalArgumentException merged = assertThrows(IllegalArgumentException.class,
        () -> BugRuns.base(7).topology(PP2_CP2).version(ProtocolVersion.MERGED)
            .faults(EnumSet.of(Fault.PP_DRAIN_BLOCKING)).build());
    assertTrue(merged.getMessage().contains("version unified"), merged.getMessage());
  }
}
