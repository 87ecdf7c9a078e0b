package dev.hicachesync.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * {@link CollectiveBench#time}: each rank's warm-up and measured calls run in one thread (issue 13: the warm-up
 * must warm the threads that are measured, placement included), and every rank makes {@code rounds / 2 + 1 +
 * rounds} calls.
 */
class CollectiveBenchTimingTest {
  @Test
  void warmUpAndMeasuredCallsRunInTheSameThreadPerRank() throws Exception {
    int ranks = 3;
    int rounds = 40;
    int warm = rounds / 2 + 1;
    AtomicIntegerArray calls = new AtomicIntegerArray(ranks);
    List<ConcurrentHashMap.KeySetView<Thread, Boolean>> threads = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      threads.add(ConcurrentHashMap.newKeySet());
    }
    CyclicBarrier inStep = new CyclicBarrier(ranks); // the ranks call in lockstep, like a collective
    double perRound = CollectiveBench.time(ranks, rounds, (rank, mine) -> {
      calls.incrementAndGet(rank);
      threads.get(rank).add(Thread.currentThread());
      inStep.await();
      return 0;
    });
    for (int r = 0; r < ranks; r++) {
      assertEquals(warm + rounds, calls.get(r), "calls of rank " + r);
      assertEquals(1, threads.get(r).size(), "threads that made rank " + r + "'s calls");
    }
    assertTrue(perRound > 0, "time per round: " + perRound);
  }
}
