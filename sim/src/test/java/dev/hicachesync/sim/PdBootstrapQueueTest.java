package dev.hicachesync.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.hicachesync.collective.LocalFabric;
import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.sim.environment.ForwardingTiming;
import dev.hicachesync.sim.environment.RankEnv;
import dev.hicachesync.sim.environment.SeededTiming;
import dev.hicachesync.sim.workload.Request;
import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.sim.datapath.DataOptions;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.environment.Timing;
import dev.hicachesync.sim.spec.SpecShaped;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import java.util.EnumSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PD prefill's bootstrap queue ({@link PdBootstrapQueue}): a received request waits until stage 0's poll finds
 * its KV bootstrap done, and then enters both stages' waiting queues at the same step, whatever a later stage's
 * own poll says (the ring carries stage 0's decision).
 */
class PdBootstrapQueueTest {

  /** A timing whose bootstrap poll says done from step {@code from} (never: {@code Long.MAX_VALUE}). */
  private static RankEnv env(int rank, long from) {
    return new RankEnv(rank, new ForwardingTiming(SeededTiming.factory().create(0, rank, 0)) {
      private long step;

      @Override
      public void beginStep(long s) {
        step = s;
      }

      @Override
      public boolean bootstrapped(String rid) {
        return step >= from;
      }
    });
  }

  /** RECV's broadcast: the request at step 0, nothing after. */
  private static Intake oneRequest() {
    return (s, stop) -> s == 0 ? List.of(new Request("req1", new int[] {1, 2}, new int[0], 1, 0, -1)) : List.of();
  }

  @Test
  void theRingMovesARequestIntoEveryStagesWaitingQueueAtTheStepStage0SeesItBootstrapped() {
    LocalFabric fabric = new LocalFabric(Duration.ofSeconds(2));
    PipeChannel ring = fabric.channel(PdBootstrapQueue.CHANNEL, 0, 1);
    RankEnv env0 = env(0, 3);
    RankEnv env1 = env(1, Long.MAX_VALUE); // stage 1's own poll never says done: the ring decides, not it
    PdBootstrapQueue stage0 = new PdBootstrapQueue(oneRequest(), env0, null, ring);
    PdBootstrapQueue stage1 = new PdBootstrapQueue(oneRequest(), env1, ring, null);
    List<String> seen = new ArrayList<>();
    for (long s = 0; s < 5; s++) {
      env0.beginStep(s);
      env1.beginStep(s);
      assertEquals(s == 0 ? 1 : 0, stage0.receive(s, false).size(), "RECV's arrivals pass through at once");
      stage1.receive(s, false);
      seen.add(s + ":" + stage0.waitingQueueHolds("req1") + "/" + stage1.waitingQueueHolds("req1"));
    }
    assertEquals(List.of("0:false/false", "1:false/false", "2:false/false", "3:true/true", "4:true/true"), seen);
  }

  /** The spec-shaped unified run of one request on two stages, PD prefill, its KV bootstrap done at once or never. */
  private static SimResult run(boolean bootstraps) {
    Timing.Factory timing = (seed, rank, readFailure) -> new ForwardingTiming(
        SeededTiming.factory().create(seed, rank, readFailure)) {
      @Override
      public boolean bootstrapped(String rid) {
        return bootstraps;
      }
    };
    return new Simulator(SimConfig.builder().topology(Topology.of(1, 1, 1, 2)).version(ProtocolVersion.UNIFIED)
        .storage(StorageMode.MEMORY).prefetchPolicy(PrefetchPolicy.WAIT_COMPLETE).writePolicy(WritePolicy.WRITE_BACK)
        .data(DataOptions.OFF).specShaped(SpecShaped.distinct(1)).devicePages(1).hostPages(2)
        .faults(EnumSet.of(Fault.PD_PREFILL_BOOTSTRAP)).timing(timing).collectiveTimeout(Duration.ofSeconds(2))
        .steps(8).seed(0).build()).run();
  }

  /**
   * Admission never takes a request still in the bootstrap queue; once bootstrapped, it is admitted (the stats
   * count the domain's requests once; the stages agree, or the domain checker names a divergence).
   */
  @Test
  void aRequestStillBootstrappingIsNeverAdmitted() {
    SimResult waiting = run(false);
    assertNull(waiting.divergence());
    assertEquals(1, waiting.stats().arrived());
    assertEquals(0, waiting.stats().admitted(), "admitted while its KV bootstrap is not done");
    SimResult bootstrapped = run(true);
    assertNull(bootstrapped.divergence());
    assertEquals(1, bootstrapped.stats().admitted());
  }
}
