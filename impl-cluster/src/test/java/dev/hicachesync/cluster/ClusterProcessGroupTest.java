package dev.hicachesync.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.collective.CollectiveException;
import dev.hicachesync.collective.CollectiveMismatchException;
import dev.hicachesync.collective.CollectivePeerLostException;
import dev.hicachesync.collective.CollectiveTimeoutException;
import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JGroups process groups against the in-JVM fabric's contract: each rank is its own {@link ClusterNode}
 * (own channel, own TCP port on loopback), so every message crosses a socket as between processes.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterProcessGroupTest {
  private static final String IDENTITY = "version=merged topology=dp1,cp3,tp1,pp1";
  private final List<ClusterNode> nodes = new ArrayList<>();
  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void tearDown() {
    pool.shutdownNow();
    for (ClusterNode n : nodes) {
      n.close();
    }
  }

  private List<ClusterNode> world(int n, Duration timeout) throws Exception {
    List<Integer> ports = Worlds.freePorts(n);
    String name = Worlds.uniqueName();
    List<ClusterConfig> configs = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      configs.add(Worlds.config(n, r, ports, timeout, IDENTITY, name));
    }
    nodes.addAll(Worlds.join(configs));
    return nodes;
  }

  private static List<Integer> ranks(int n) {
    List<Integer> all = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      all.add(r);
    }
    return all;
  }

  private <T> List<T> onEveryRank(List<Callable<T>> work) throws Exception {
    List<Future<T>> futures = new ArrayList<>();
    for (Callable<T> c : work) {
      futures.add(pool.submit(c));
    }
    List<T> out = new ArrayList<>();
    for (Future<T> f : futures) {
      out.add(f.get(60, TimeUnit.SECONDS));
    }
    return out;
  }

  private static Throwable failureOf(Future<?> f) throws Exception {
    ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
    return e.getCause();
  }

  @Test
  void everyMemberGetsTheSameReductionBroadcastAndBarrier() throws Exception {
    List<ClusterNode> world = world(3, Duration.ofSeconds(20));
    List<Callable<long[]>> work = new ArrayList<>();
    for (ClusterNode node : world) {
      work.add(() -> {
        ProcessGroup g = node.group("world", ranks(3));
        int r = node.rank();
        long[] min = g.allReduce("S1", ReduceOp.MIN, new long[] {10 + r, 5 - r, 7});
        long[] max = g.allReduce("S4", ReduceOp.MAX, new long[] {r, -r});
        g.barrier("S6");
        long[] fromRoot = g.broadcast("RECV", 1, new long[] {100 * r, 1});
        return new long[] {min[0], min[1], min[2], max[0], max[1], fromRoot[0], fromRoot[1]};
      });
    }
    for (long[] seen : onEveryRank(work)) {
      assertArrayEquals(new long[] {10, 3, 7, 2, 0, 100, 1}, seen);
    }
  }

  @Test
  void aCallThatDiffersFailsEveryMemberWithTheSameNamedMismatch() throws Exception {
    List<ClusterNode> world = world(3, Duration.ofSeconds(20));
    List<Future<?>> calls = new ArrayList<>();
    for (ClusterNode node : world) {
      calls.add(pool.submit(() -> node.group("attn_cp", ranks(3))
          .allReduce(node.rank() == 2 ? "S2" : "S1", ReduceOp.MIN, new long[] {1})));
    }
    List<String> messages = new ArrayList<>();
    for (Future<?> f : calls) {
      Throwable t = failureOf(f);
      assertInstanceOf(CollectiveMismatchException.class, t);
      messages.add(t.getMessage());
    }
    assertEquals("INV-1 CollectiveMatching violated on attn_cp call #0: rank 0 allReduce(MIN) at S1 len 1; "
        + "rank 1 allReduce(MIN) at S1 len 1; rank 2 allReduce(MIN) at S2 len 1", messages.get(0));
    assertEquals(messages.get(0), messages.get(1));
    assertEquals(messages.get(0), messages.get(2));
  }

  @Test
  void aPayloadOfAnotherLengthIsAMismatchToo() throws Exception {
    List<ClusterNode> world = world(2, Duration.ofSeconds(20));
    Future<?> a = pool.submit(() -> world.get(0).group("g", ranks(2)).allReduce("S123", ReduceOp.MIN, new long[3]));
    Future<?> b = pool.submit(() -> world.get(1).group("g", ranks(2)).allReduce("S123", ReduceOp.MIN, new long[4]));
    assertTrue(failureOf(a).getMessage().contains("rank 1 allReduce(MIN) at S123 len 4"));
    assertInstanceOf(CollectiveMismatchException.class, failureOf(b));
  }

  @Test
  void aMemberThatNeverCallsIsNamedByATimeout() throws Exception {
    List<ClusterNode> world = world(3, Duration.ofMillis(1500));
    List<Future<?>> calls = new ArrayList<>();
    long start = System.nanoTime();
    for (int r = 0; r < 2; r++) {
      ClusterNode node = world.get(r);
      calls.add(pool.submit(() -> node.group("world", ranks(3)).barrier("S6")));
    }
    for (Future<?> f : calls) {
      Throwable t = failureOf(f);
      assertInstanceOf(CollectiveTimeoutException.class, t);
      assertTrue(t.getMessage().contains("missing rank(s) 2"), t.getMessage());
    }
    // Past the timeout the waiters give the member the grace a stopped one would need to fall silent: it beats,
    // so it is alive but elsewhere, and the timeout stands (a protocol hang, not a lost rank).
    long grace = java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(world.get(0).liveness().aliveGraceNanos());
    assertTrue(elapsedMs(start) < 1500 + grace + 2000, "took " + elapsedMs(start) + " ms");
  }

  @Test
  void aMemberThatLeavesFailsTheWaitersByNameBeforeTheTimeout() throws Exception {
    List<ClusterNode> world = world(3, Duration.ofSeconds(30));
    List<Future<?>> calls = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      ClusterNode node = world.get(r);
      calls.add(pool.submit(() -> node.group("attn_tp", ranks(3)).allReduce("S1", ReduceOp.MIN, new long[] {1})));
    }
    long start = System.nanoTime();
    world.get(2).close();
    for (Future<?> f : calls) {
      Throwable t = failureOf(f);
      assertInstanceOf(CollectivePeerLostException.class, t);
      assertTrue(t.getMessage().contains("rank(s) [2] left the world"), t.getMessage());
      assertTrue(t.getMessage().contains("attn_tp [0, 1, 2] call #0 allReduce(MIN) at S1 len 1"), t.getMessage());
    }
    assertTrue(elapsedMs(start) < 10_000, "took " + elapsedMs(start) + " ms (timeout 30 s)");
  }

  @Test
  void aPipeIsFifoAndItsReceiverLearnsWhenTheSenderLeaves() throws Exception {
    List<ClusterNode> world = world(2, Duration.ofSeconds(30));
    PipeChannel out = world.get(0).pipe(0, 1);
    PipeChannel in = world.get(1).pipe(0, 1);
    for (long i = 0; i < 50; i++) {
      out.send(new long[] {i, -i});
    }
    for (long i = 0; i < 50; i++) {
      assertArrayEquals(new long[] {i, -i}, in.recv());
    }
    Future<long[]> waiting = pool.submit(in::recv);
    world.get(0).close();
    Throwable t = failureOf(waiting);
    assertInstanceOf(CollectivePeerLostException.class, t);
    assertTrue(t.getMessage().contains("pipe 0->1"), t.getMessage());
  }

  @Test
  void aPeerWithAnotherVersionIsRefusedAtStartUpNamingBothSides() throws Exception {
    List<Integer> ports = Worlds.freePorts(2);
    String name = Worlds.uniqueName();
    Duration t = Duration.ofSeconds(5);
    Future<ClusterNode> a = pool.submit(() -> ClusterNode.join(
        Worlds.config(2, 0, ports, t, "version=merged topology=dp1,cp2,tp1,pp1", name), Duration.ofSeconds(20)));
    Future<ClusterNode> b = pool.submit(() -> ClusterNode.join(
        Worlds.config(2, 1, ports, t, "version=post20460 topology=dp1,cp2,tp1,pp1", name), Duration.ofSeconds(20)));
    for (Future<ClusterNode> f : List.of(a, b)) {
      Throwable e = failureOf(f);
      assertInstanceOf(ClusterStartException.class, e);
      assertTrue(e.getMessage().contains("handshake refused"), e.getMessage());
      assertTrue(e.getMessage().contains("version=merged") && e.getMessage().contains("version=post20460"),
          e.getMessage());
      assertEquals(1, e.getMessage().lines().count());
    }
  }

  static long elapsedMs(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }

  static void assertNamesRank(CollectiveException e, int rank) {
    assertTrue(e.getMessage().contains(String.valueOf(rank)), e.getMessage());
  }
}
