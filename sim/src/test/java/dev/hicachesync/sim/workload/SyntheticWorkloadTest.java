package dev.hicachesync.sim.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The synthetic workload's ranks share one stream per (seed, replica): the same request objects, and exactly the
 * requests a stream of a rank's own draws.
 */
class SyntheticWorkloadTest {
  private static final int PAGE = 64;
  private static final int STEPS = 400;

  @Test
  void theRanksOfAReplicaGetTheSameRequestObjects() {
    Workload.Factory f = SyntheticWorkload.factory(PAGE);
    Workload a = f.create(7, 0);
    Workload b = f.create(7, 0);
    List<Request> fromA = read(a, 0, STEPS);
    List<Request> fromB = read(b, 0, STEPS);
    assertTrue(fromA.size() > 100, "arrivals in " + STEPS + " steps: " + fromA.size());
    assertEquals(fromA.size(), fromB.size());
    for (int i = 0; i < fromA.size(); i++) {
      assertSame(fromA.get(i), fromB.get(i), "request " + i);
    }
  }

  @Test
  void aSharedStreamDrawsWhatAStreamOfOnesOwnDraws() {
    Workload.Factory f = SyntheticWorkload.factory(PAGE);
    Workload ahead = f.create(7, 0);
    Workload behind = f.create(7, 0);
    // One reader runs 150 steps ahead, so the other reads steps it did not draw.
    List<Request> first = read(ahead, 0, 150);
    List<Request> shared = read(behind, 0, STEPS);
    first.addAll(read(ahead, 150, STEPS));
    List<Request> own = read(new SyntheticWorkload(7, 0, PAGE), 0, STEPS);
    assertEqualRequests(own, shared);
    assertEqualRequests(own, first);
  }

  @Test
  void aWorkloadMadeAfterItsStreamBeganDrawsItsOwnWithTheSameRequests() {
    Workload.Factory f = SyntheticWorkload.factory(PAGE);
    Workload early = f.create(7, 0);
    List<Request> earlyReqs = read(early, 0, STEPS);
    Workload late = f.create(7, 0); // a second run with the same factory
    List<Request> lateReqs = read(late, 0, STEPS);
    assertEqualRequests(earlyReqs, lateReqs);
    assertNotSame(earlyReqs.get(0), lateReqs.get(0));
  }

  @Test
  void replicasAndSeedsHaveStreamsOfTheirOwn() {
    Workload.Factory f = SyntheticWorkload.factory(PAGE);
    List<Request> d0 = read(f.create(7, 0), 0, STEPS);
    List<Request> d1 = read(f.create(7, 1), 0, STEPS);
    List<Request> seed8 = read(f.create(8, 0), 0, STEPS);
    assertEqualRequests(read(new SyntheticWorkload(7, 1, PAGE), 0, STEPS), d1);
    assertEqualRequests(read(new SyntheticWorkload(8, 0, PAGE), 0, STEPS), seed8);
    assertTrue(d1.get(0).rid().startsWith("d1-"), d1.get(0).rid());
    assertTrue(!java.util.Arrays.equals(d0.get(0).prompt(), seed8.get(0).prompt()), "seeds 7 and 8 drew one prompt");
  }

  @Test
  void aReaderAskingForAnotherStepGetsItsWaitingAndAbortStepsFromThatStep() {
    Workload.Factory f = SyntheticWorkload.factory(PAGE);
    Workload drawer = f.create(7, 0);
    Workload shifted = f.create(7, 0);
    List<Request> drawn = new ArrayList<>();
    List<Request> moved = new ArrayList<>();
    for (long s = 0; s < STEPS; s++) {
      drawn.addAll(drawer.arrivals(s));
      moved.addAll(shifted.arrivals(s + 5));
    }
    assertEquals(drawn.size(), moved.size());
    boolean anAbort = false;
    for (int i = 0; i < drawn.size(); i++) {
      Request d = drawn.get(i);
      Request m = moved.get(i);
      assertTrue(d.prompt() == m.prompt(), "request " + i + ": a prompt of its own");
      assertEquals(d.eligibleStep() + 5, m.eligibleStep());
      assertEquals(d.abortStep() < 0 ? -1 : d.abortStep() + 5, m.abortStep());
      anAbort |= d.abortStep() >= 0;
    }
    assertTrue(anAbort, "no request of " + STEPS + " steps is aborted");
  }

  @Test
  void ranksOnThreadsOfTheirOwnReadTheSameStream() throws Exception {
    Workload.Factory f = SyntheticWorkload.factory(PAGE);
    int ranks = 4;
    List<Workload> ws = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      ws.add(f.create(7, 0));
    }
    ExecutorService pool = Executors.newFixedThreadPool(ranks);
    try {
      List<Future<List<Request>>> got = new ArrayList<>();
      for (Workload w : ws) {
        Callable<List<Request>> c = () -> read(w, 0, 3_000);
        got.add(pool.submit(c));
      }
      List<Request> first = got.get(0).get();
      assertEqualRequests(read(new SyntheticWorkload(7, 0, PAGE), 0, 3_000), first);
      for (Future<List<Request>> g : got) {
        List<Request> other = g.get();
        assertEquals(first.size(), other.size());
        for (int i = 0; i < first.size(); i++) {
          assertSame(first.get(i), other.get(i), "request " + i);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static List<Request> read(Workload w, long from, long to) {
    List<Request> all = new ArrayList<>();
    for (long s = from; s < to; s++) {
      all.addAll(w.arrivals(s));
    }
    return all;
  }

  private static void assertEqualRequests(List<Request> want, List<Request> got) {
    assertEquals(want.size(), got.size(), "requests");
    for (int i = 0; i < want.size(); i++) {
      Request w = want.get(i);
      Request g = got.get(i);
      String at = "request " + i + " (" + w.rid() + ")";
      assertEquals(w.rid(), g.rid(), at);
      assertArrayEquals(w.prompt(), g.prompt(), at);
      assertArrayEquals(w.output(), g.output(), at);
      assertEquals(w.decodeSteps(), g.decodeSteps(), at);
      assertEquals(w.eligibleStep(), g.eligibleStep(), at);
      assertEquals(w.abortStep(), g.abortStep(), at);
    }
  }
}
