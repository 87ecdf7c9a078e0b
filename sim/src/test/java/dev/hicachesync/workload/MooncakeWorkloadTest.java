package dev.hicachesync.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.sim.workload.Request;
import dev.hicachesync.sim.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The trace as a request source: arrival steps from timestamps, bursts spread, tokens, DP split. */
class MooncakeWorkloadTest {

  private final List<MooncakeRequest> tiny = Traces.resource(Traces.TINY);

  @Test
  void burstsSpreadOverConsecutiveStepsInArrivalOrder() {
    // Timestamps 0,0,5,9,12,12,40,41,70,71,90,95 at 10 ms per step: 0,0,0,0,1,1,4,4,7,7,9,9.
    long[] steps = MooncakeWorkload.arrivalSteps(tiny, new ReplayTiming(10, 20));
    assertArrayEquals(new long[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, steps);
    long[] sparse = MooncakeWorkload.arrivalSteps(tiny, new ReplayTiming(1, 20));
    assertArrayEquals(new long[] {0, 1, 5, 9, 12, 13, 40, 41, 70, 71, 90, 95}, sparse);
  }

  @Test
  void eachStepDeliversItsRequestWithPromptAndOutputTokens() {
    ReplayTiming t = new ReplayTiming(1, 2.5);
    Workload w = MooncakeWorkload.factory(tiny, 1, t, "tiny").create(7, 0);
    List<Request> all = new ArrayList<>();
    for (long s = 0; s < 100; s++) {
      List<Request> got = w.arrivals(s);
      assertTrue(got.size() <= 1, "step " + s);
      all.addAll(got);
    }
    assertEquals(tiny.size(), all.size());
    Request r = all.get(4);
    assertEquals("m4", r.rid());
    assertArrayEquals(BlockTokens.input(tiny.get(4)), r.prompt());
    assertEquals(100, r.output().length);
    assertEquals(250, r.decodeSteps(), "100 tokens x 2.5 ms at 1 ms per step");
    assertEquals(12, r.eligibleStep());
    assertEquals(-1, r.abortStep());
  }

  @Test
  void dpReplicasSplitTheTraceRoundRobinOnTheSameSteps() {
    Workload.Factory f = MooncakeWorkload.factory(tiny, 2, new ReplayTiming(10, 20), "tiny");
    Workload w0 = f.create(7, 0);
    Workload w1 = f.create(7, 1);
    List<String> r0 = new ArrayList<>();
    List<String> r1 = new ArrayList<>();
    for (long s = 0; s < 20; s++) {
      String at = "@" + s;
      w0.arrivals(s).forEach(r -> r0.add(r.rid() + at));
      w1.arrivals(s).forEach(r -> r1.add(r.rid() + at));
    }
    assertEquals(List.of("m0@0", "m2@2", "m4@4", "m6@6", "m8@8", "m10@10"), r0);
    assertEquals(List.of("m1@1", "m3@3", "m5@5", "m7@7", "m9@9", "m11@11"), r1);
  }

  @Test
  void stepsNeededCoversTheLastArrivalAndTheLongestDecode() {
    ReplayTiming t = new ReplayTiming(10, 20);
    // Last arrival at step 11; longest output 300 tokens x 20 ms / 10 ms = 600 steps.
    assertEquals(11 + 600 + 1 + 5, MooncakeWorkload.stepsNeeded(tiny, t, 5));
  }

  @Test
  void admissionsFeedTheBlockLevelAccounting() {
    Workload.Factory f = MooncakeWorkload.factory(tiny, 1, new ReplayTiming(10, 20), "tiny");
    MooncakeWorkload w = (MooncakeWorkload) f.create(7, 0);
    w.arrivals(0);
    w.arrivals(1);
    w.admitted("m0", 0, 0, 0);
    w.admitted("m1", 512, 256, 256); // blocks 0 (L1) and 1 (L3) of [0, 1, 3] hit, block 2 missed
    assertEquals(1, w.hits().blocks(TierHits.Tier.L1));
    assertEquals(0, w.hits().blocks(TierHits.Tier.L2));
    assertEquals(1, w.hits().blocks(TierHits.Tier.L3));
    assertEquals(4, w.hits().blocks(TierHits.Tier.MISS));
    assertThrows(IllegalArgumentException.class, () -> w.admitted("m1", 0, 0, 0));
  }
}
