package dev.hicachesync.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.collective.Ranks.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LocalFabricTest {
  static final List<Integer> FOUR = List.of(0, 1, 2, 3);

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 8})
  void allReduceBarrierAndBroadcastGiveEveryMemberTheSameResult(int n) throws Exception {
    LocalFabric fabric = new LocalFabric(Duration.ofSeconds(20));
    List<Integer> members = java.util.stream.IntStream.range(0, n).boxed().toList();
    List<Outcome<long[]>> out = Ranks.run(members, r -> {
      ProcessGroup g = fabric.group(members, r);
      long[] acc = new long[6];
      for (int round = 0; round < 200; round++) {
        long[] min = g.allReduce("S123", ReduceOp.MIN, new long[] {r + round, 10 - r});
        long[] max = g.allReduce("S4", ReduceOp.MAX, new long[] {r, -r});
        long[] sum = g.allReduce("S5", ReduceOp.SUM, new long[] {r});
        g.barrier("S6");
        long[] b = g.broadcast("RECV", n - 1, new long[] {r * 100L, round});
        assertArrayEquals(new long[] {round, 10 - (n - 1)}, min);
        assertArrayEquals(new long[] {n - 1, 0}, max);
        assertArrayEquals(new long[] {(long) n * (n - 1) / 2}, sum);
        assertArrayEquals(new long[] {(n - 1) * 100L, round}, b);
        acc[0] += min[0];
      }
      return acc;
    });
    for (Outcome<long[]> o : out) {
      assertNull(o.error(), () -> String.valueOf(o.error()));
      assertEquals(199L * 200 / 2, o.value()[0]);
    }
  }

  @Test
  void payloadIsCopiedInAndOut() throws Exception {
    LocalFabric fabric = new LocalFabric(Duration.ofSeconds(20));
    List<Outcome<long[]>> out = Ranks.run(List.of(0, 1), r -> {
      long[] mine = {r + 1};
      long[] res = fabric.group(List.of(0, 1), r).allReduce("S1", ReduceOp.SUM, mine);
      mine[0] = 99;
      res[0] += 1000 * r; // mutating one result must not change another rank's
      return res;
    });
    assertArrayEquals(new long[] {3}, out.get(0).value());
    assertArrayEquals(new long[] {1003}, out.get(1).value());
  }

  @Test
  void namedGroupsWithTheSameMembersAreSeparateRendezvous() throws Exception {
    LocalFabric fabric = new LocalFabric(Duration.ofSeconds(20));
    // Each rank's scheduler and prefetch threads use their own group; calls pair within a group only.
    List<Outcome<long[]>> out = Ranks.run(List.of(0, 1, 10, 11), id -> {
      int rank = id % 10;
      String name = id < 10 ? "scheduler" : "prefetch";
      ProcessGroup g = fabric.group(name, List.of(0, 1), rank);
      long[] last = null;
      for (int i = 0; i < 100; i++) {
        last = g.allReduce(id < 10 ? "S1" : "S7", ReduceOp.MAX, new long[] {id});
      }
      return last;
    });
    assertArrayEquals(new long[] {1}, out.get(0).value());
    assertArrayEquals(new long[] {1}, out.get(1).value());
    assertArrayEquals(new long[] {11}, out.get(2).value());
    assertArrayEquals(new long[] {11}, out.get(3).value());
  }

  @Test
  void mismatchFailsEveryMemberNamingEachRankAndCallSite() throws Exception {
    LocalFabric fabric = new LocalFabric(Duration.ofSeconds(20));
    // INV-1: rank 2 is in the next step's request broadcast while ranks 0, 1, 3 reduce write acks (B3).
    List<Outcome<long[]>> out = Ranks.run(FOUR, r -> {
      ProcessGroup g = fabric.group(FOUR, r);
      g.barrier("S6"); // one matching call first: the mismatch is call #1
      return r == 2 ? g.broadcast("RECV", 0, new long[3]) : g.allReduce("S1", ReduceOp.MIN, new long[] {1});
    });
    for (int r = 0; r < 4; r++) {
      CollectiveMismatchException e = assertInstanceOf(CollectiveMismatchException.class, out.get(r).error());
      String m = e.getMessage();
      assertTrue(m.startsWith("rank " + r + ": INV-1 CollectiveMatching violated on group[0,1,2,3] call #1"), m);
      assertTrue(m.contains("rank 0 allReduce(MIN) at S1 len 1"), m);
      assertTrue(m.contains("rank 2 broadcast(root=0) at RECV len 3"), m);
      assertTrue(m.contains("rank 3 allReduce(MIN) at S1 len 1"), m);
    }
    // The group is broken afterwards: a later call fails at once instead of hanging.
    ProcessGroup g0 = fabric.group(FOUR, 0);
    assertThrows(CollectiveMismatchException.class, () -> g0.barrier("S6"));
  }

  @Test
  void payloadLengthMismatchIsAMismatch() throws Exception {
    LocalFabric fabric = new LocalFabric(Duration.ofSeconds(20));
    List<Outcome<long[]>> out = Ranks.run(List.of(0, 1), r ->
        fabric.group(List.of(0, 1), r).allReduce("S3", ReduceOp.MIN, new long[r + 2]));
    for (Outcome<long[]> o : out) {
      String m = assertInstanceOf(CollectiveMismatchException.class, o.error()).getMessage();
      assertTrue(m.contains("rank 0 allReduce(MIN) at S3 len 2; rank 1 allReduce(MIN) at S3 len 3"), m);
    }
  }

  @Test
  void timeoutNamesTheMissingRankAndWhereEveryRankWaits() throws Exception {
    // 1 s: long enough that rank 1 arrives before rank 0 gives up even on a loaded machine.
    LocalFabric fabric = new LocalFabric(Duration.ofSeconds(1));
    fabric.group(List.of(0, 1, 2), 2); // rank 2 belongs to the group but never calls
    List<Outcome<long[]>> out = Ranks.run(List.of(0, 1), r ->
        fabric.group(List.of(0, 1, 2), r).allReduce("S1", ReduceOp.MIN, new long[] {r}));
    for (int r = 0; r < 2; r++) {
      String m = assertInstanceOf(CollectiveTimeoutException.class, out.get(r).error()).getMessage();
      assertTrue(m.contains("collective timeout on group[0,1,2] call #0"), m);
      assertTrue(m.contains("missing rank(s) 2;"), m);
      assertTrue(m.contains("rank 2: not in a collective"), m);
      assertTrue(m.contains("rank 0: group[0,1,2] at S1 (allReduce(MIN))"), m);
      assertTrue(m.contains("rank 1: group[0,1,2] at S1 (allReduce(MIN))"), m);
    }
  }

  @Test
  void waitBoardShowsEachRanksCollectiveAndPipeWait() throws Exception {
    LocalFabric fabric = new LocalFabric(Duration.ofSeconds(20));
    PipeChannel pipe = fabric.channel(0, 2);
    CompletableFuture<long[]> r0 = Ranks.start(List.of(0), r ->
        fabric.group(List.of(0, 1), r).allReduce("S1", ReduceOp.MIN, new long[] {5})).get(0);
    CompletableFuture<long[]> r2 = Ranks.start(List.of(2), r -> pipe.recv()).get(0);
    Ranks.awaitState(() -> fabric.describeWaits().contains("rank 0: group[0,1]")
        && fabric.describeWaits().contains("rank 2: pipe[0->2] recv #0 from rank 0"), "both ranks waiting");
    assertEquals("rank 0: group[0,1] at S1 (allReduce(MIN)); rank 1: not in a collective; "
        + "rank 2: pipe[0->2] recv #0 from rank 0", fabric.describeWaits());
    // Release both: rank 1 makes its call, rank 0 forwards a count down the pipe.
    assertArrayEquals(new long[] {4}, fabric.group(List.of(0, 1), 1).allReduce("S1", ReduceOp.MIN, new long[] {4}));
    pipe.send(new long[] {7, 8});
    assertArrayEquals(new long[] {4}, Ranks.await(r0).value());
    assertArrayEquals(new long[] {7, 8}, Ranks.await(r2).value());
    assertEquals("rank 0: not in a collective; rank 1: not in a collective; rank 2: not in a collective",
        fabric.describeWaits());
  }

  /**
   * In a circular wait the peers' timeouts fire moments apart; the message of the one that fires last must still
   * name where the first one waited, not "not in a collective" (PipelineReplayTest's B19 lost half of its circle).
   */
  @Test
  void aWaitThatTimedOutStaysOnTheBoard() throws Exception {
    LocalFabric fabric = new LocalFabric(Duration.ofMillis(300));
    fabric.group(List.of(0, 1), 1); // rank 1 belongs to the group but never calls
    PipeChannel pipe = fabric.channel(0, 2); // and never sends
    List<Outcome<long[]>> out = Ranks.run(List.of(0, 2), r -> r == 0
        ? fabric.group(List.of(0, 1), 0).allReduce("S123", ReduceOp.MAX, new long[] {1})
        : pipe.recv());
    for (Outcome<long[]> o : out) {
      assertInstanceOf(CollectiveTimeoutException.class, o.error());
    }
    assertEquals("rank 0: group[0,1] at S123 (allReduce(MAX)), timed out; rank 1: not in a collective; "
        + "rank 2: pipe[0->2] recv #0 from rank 0, timed out", fabric.describeWaits());
  }

  @Test
  void twoThreadsOfOneRankInOneGroupAreRejected() throws Exception {
    LocalFabric fabric = new LocalFabric(Duration.ofSeconds(20));
    CompletableFuture<long[]> scheduler = Ranks.start(List.of(0), r ->
        fabric.group(List.of(0, 1), r).allReduce("S1", ReduceOp.MIN, new long[] {1})).get(0);
    Ranks.awaitState(() -> fabric.describeWaits().startsWith("rank 0: group[0,1] at S1"), "rank 0 waiting");
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> fabric.group(List.of(0, 1), 0).allReduce("S7", ReduceOp.MIN, new long[] {1}));
    assertTrue(e.getMessage().contains("rank 0 entered group[0,1] twice"), e.getMessage());
    fabric.group(List.of(0, 1), 1).allReduce("S1", ReduceOp.MIN, new long[] {1});
    assertArrayEquals(new long[] {1}, Ranks.await(scheduler).value());
  }

  @Test
  void pipeIsFifoPollNeverBlocksAndRecvTimesOutNamingTheSender() {
    LocalFabric fabric = new LocalFabric(Duration.ofMillis(200));
    PipeChannel p = fabric.channel(1, 3);
    assertEquals(p, fabric.channel(1, 3));
    assertNull(p.poll());
    p.send(new long[] {1});
    p.send(new long[] {2});
    assertArrayEquals(new long[] {1}, p.recv());
    assertArrayEquals(new long[] {2}, p.poll());
    CollectiveTimeoutException e = assertThrows(CollectiveTimeoutException.class, p::recv);
    assertTrue(e.getMessage().contains("missing rank(s) 1"), e.getMessage());
    assertTrue(e.getMessage().contains("message #2"), e.getMessage());
    assertTrue(e.getMessage().contains("rank 3: pipe[1->3] recv #2 from rank 1"), e.getMessage());
  }

  @Test
  void badArgumentsAreRejected() {
    LocalFabric fabric = new LocalFabric(Duration.ofSeconds(1));
    assertThrows(IllegalArgumentException.class, () -> new LocalFabric(Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> fabric.group(List.of(0, 1), 2));
    assertThrows(IllegalArgumentException.class, () -> fabric.group(List.of(0, 0), 0));
    assertThrows(IllegalArgumentException.class, () -> fabric.group(List.of(), 0));
    assertThrows(IllegalArgumentException.class, () -> fabric.channel(1, 1));
    ProcessGroup solo = fabric.group(List.of(3, 1), 1);
    assertEquals(List.of(1, 3), solo.members());
    assertThrows(IllegalArgumentException.class, () -> solo.broadcast("RECV", 2, new long[1]));
    assertThrows(IllegalArgumentException.class, () -> solo.barrier(""));
    ProcessGroup single = fabric.group(List.of(5), 5);
    assertArrayEquals(new long[] {4, 2}, single.allReduce("S1", ReduceOp.MIN, new long[] {4, 2}));
    assertNotNull(single.toString());
  }

  @Test
  void rendezvousIsCheapEnoughForTheSimulator() throws Exception {
    int rounds = 20_000;
    LocalFabric fabric = new LocalFabric(Duration.ofSeconds(20));
    long start = System.nanoTime();
    List<Outcome<long[]>> out = Ranks.run(FOUR, r -> {
      ProcessGroup g = fabric.group(FOUR, r);
      long[] last = null;
      for (int i = 0; i < rounds; i++) {
        last = g.allReduce("S123", ReduceOp.MIN, new long[] {i + r, r, 3});
      }
      return last;
    });
    double microsPerCall = (System.nanoTime() - start) / 1e3 / rounds;
    System.out.printf("LocalFabric: 4 threads, %d all-reduces, %.1f us each%n", rounds, microsPerCall);
    for (Outcome<long[]> o : out) {
      assertArrayEquals(new long[] {rounds - 1, 0, 3}, o.value());
    }
    // Generous bound for 2 shared cores; the target on an idle machine is tens of microseconds.
    assertTrue(microsPerCall < 1_000, microsPerCall + " us per all-reduce");
  }
}
