package dev.hicachesync.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The stamps a scheduler sync point carries, on a group of four (more members than the two stamp slots):
 * the values reduce as they would bare, and ranks whose stamps differ are all named, by every member.
 */
class OrderStampedGroupTest {
  private static final int RANKS = 4;

  @Test
  void theValuesReduceAsTheyWouldWithoutStamps() throws Exception {
    for (ReduceOp op : ReduceOp.values()) {
      List<Object> out = run(r -> order(r, 1), op);
      long[] expected = switch (op) {
        case MIN -> new long[] {0, -3};
        case MAX -> new long[] {3, 0};
        case SUM -> new long[] {6, -6};
      };
      for (Object o : out) {
        assertArrayEquals(expected, (long[]) o, op + ": " + out);
      }
    }
  }

  /** Rank 2 is a whole step ahead, with no skip of its own: every member names the ranks in each step. */
  @Test
  void ranksInDifferentStepsAreNamedByEveryMember() throws Exception {
    for (ReduceOp op : ReduceOp.values()) {
      List<Object> out = run(r -> order(r, r == 2 ? 2 : 1), op);
      for (int r = 0; r < RANKS; r++) {
        assertTrue(out.get(r) instanceof CallOrderException, op + ", rank " + r + ": " + out.get(r));
        assertEquals("call order: ranks [0, 1, 3] in step 1, ranks [2] in step 2: they reached it in different steps"
            + " (a call made in another step than the others made it); seen by rank " + r + " at sync point S123"
            + " on " + "g" + " [0, 1, 2, 3]", ((CallOrderException) out.get(r)).getMessage()
                .replaceFirst(" on \\S+ ", " on g "), op + ", rank " + r);
      }
    }
  }

  /** Rank {@code rank} at step {@code steps} with every call of the earlier steps made. */
  private static CallOrder order(int rank, int steps) {
    CallOrder o = new CallOrder(rank);
    for (int s = 1; s < steps; s++) {
      o.enter(SchedulerCall.RUN_PREFETCH_THREAD);
      o.enter(SchedulerCall.CHECK_HICACHE_EVENTS);
    }
    o.enter(SchedulerCall.RUN_PREFETCH_THREAD);
    return o;
  }

  /** Every rank reduces {@code [r, -r]} through its stamped group; its result or its failure, in rank order. */
  private static List<Object> run(IntFunction<CallOrder> orders, ReduceOp op) throws Exception {
    HiCacheConfig cfg = HiCacheConfig.builder().parallelism(1, 2, 2, 1).protocolVersion("merged").build();
    InJvmCluster cluster = InJvmCluster.of(cfg, Duration.ofSeconds(20));
    List<CompletableFuture<Object>> ranks = new ArrayList<>();
    for (int r = 0; r < RANKS; r++) {
      ProcessGroup g = new OrderStampedGroup(cluster.groups(r).cpTp(), orders.apply(r));
      long[] values = {r, -r};
      ranks.add(CompletableFuture.supplyAsync(() -> {
        try {
          return g.allReduce("S123", op, values);
        } catch (CallOrderException e) {
          return e;
        }
      }));
    }
    List<Object> out = new ArrayList<>();
    for (CompletableFuture<Object> f : ranks) {
      out.add(f.get(60, TimeUnit.SECONDS));
    }
    return out;
  }
}
