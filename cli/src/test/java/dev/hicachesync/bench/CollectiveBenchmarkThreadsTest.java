package dev.hicachesync.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * {@link CollectiveBenchmark}'s operations, driven by hand as JMH drives them: every operation is
 * {@code rounds} calls by each rank, and all of a rank's calls, warm-up operations and measured ones alike,
 * run in one thread (the warm-up must warm the threads that are measured, placement included).
 */
class CollectiveBenchmarkThreadsTest {

  private static CollectiveBenchmark benchmark(int ranks, int rounds) {
    CollectiveBenchmark b = new CollectiveBenchmark();
    b.ranks = ranks;
    b.rounds = rounds;
    b.variant = "allReduce";
    return b;
  }

  @Test
  void everyOperationIsRoundsCallsPerRankAllInOneThreadPerRank() throws Exception {
    int ranks = 3;
    int rounds = 40;
    int operations = 5; // say 2 of warm-up and 3 measured: JMH keeps the state, and so the threads, for both
    AtomicIntegerArray calls = new AtomicIntegerArray(ranks);
    List<ConcurrentHashMap.KeySetView<Thread, Boolean>> threads = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      threads.add(ConcurrentHashMap.newKeySet());
    }
    CyclicBarrier inStep = new CyclicBarrier(ranks); // the ranks call in lockstep, like a collective
    CollectiveBenchmark b = benchmark(ranks, rounds);
    b.start((rank, mine) -> {
      calls.incrementAndGet(rank);
      threads.get(rank).add(Thread.currentThread());
      inStep.await();
      return 0;
    });
    for (int op = 0; op < operations; op++) {
      b.calls();
      for (int r = 0; r < ranks; r++) {
        assertEquals((op + 1) * rounds, calls.get(r), "calls of rank " + r + " after operation " + op);
      }
    }
    b.tearDown();
    for (int r = 0; r < ranks; r++) {
      assertEquals(1, threads.get(r).size(), "threads that made rank " + r + "'s calls");
    }
  }

  @Test
  void aFailingCallFailsTheOperation() throws Exception {
    CollectiveBenchmark b = benchmark(2, 3);
    b.start((rank, mine) -> {
      throw new IllegalStateException("rank " + rank + " lost");
    });
    assertThrows(IllegalStateException.class, b::calls);
    b.tearDown();
  }

  @Test
  void theFabricAndItsBaselinesRunAsBenchmarked() throws Exception {
    for (String variant : new String[] {"allReduce", "exchange", "barrier", "await"}) {
      CollectiveBenchmark b = benchmark(4, 50);
      b.variant = variant;
      b.setUp();
      b.calls();
      b.calls();
      b.tearDown();
    }
  }
}
