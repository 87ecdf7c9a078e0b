package dev.hicachesync.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.hicachesync.collective.Ranks.Outcome;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * PROTOCOL.md §3 (#20460): reducing over the attn_cp group and then over the attn_tp group equals one
 * reduction over the whole CP×TP grid, for MIN and MAX; groups come from {@link Topology}.
 */
class TwoStepReductionTest {

  @Test
  void cpThenTpEqualsOneReductionOverTheGrid() throws Exception {
    Topology t = Topology.of(2, 2, 2, 1); // two dp replicas: each reduces within its own grid only
    LocalFabric fabric = new LocalFabric(Duration.ofSeconds(20));
    List<Integer> ranks = IntStream.range(0, t.worldSize()).boxed().toList();
    List<Outcome<long[]>> out = Ranks.run(ranks, r -> {
      ProcessGroup cp = fabric.group(t.attnCpGroup(r), r);
      ProcessGroup tp = fabric.group(t.attnTpGroup(r), r);
      ProcessGroup grid = fabric.group(t.cpTpGroup(r), r);
      long[] local = {(r * 7) % 5, r};
      long[] twoStepMin = tp.allReduce("S1", ReduceOp.MIN, cp.allReduce("S1", ReduceOp.MIN, local));
      long[] twoStepMax = tp.allReduce("S4", ReduceOp.MAX, cp.allReduce("S4", ReduceOp.MAX, local));
      long[] oneMin = grid.allReduce("S1", ReduceOp.MIN, local);
      long[] oneMax = grid.allReduce("S4", ReduceOp.MAX, local);
      assertArrayEquals(oneMin, twoStepMin, "MIN on rank " + r);
      assertArrayEquals(oneMax, twoStepMax, "MAX on rank " + r);
      return oneMin;
    });
    for (int r = 0; r < t.worldSize(); r++) {
      assertNull(out.get(r).error(), String.valueOf(out.get(r).error()));
      // replica 0 = ranks 0..3: values (0,0) (2,1) (4,2) (1,3); replica 1 = ranks 4..7: (3,4) (0,5) (2,6) (4,7)
      assertArrayEquals(r < 4 ? new long[] {0, 0} : new long[] {0, 4}, out.get(r).value(), "rank " + r);
    }
  }
}
