package dev.hicachesync.sync;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hicachesync.collective.LocalFabric;
import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How each protocol version reduces a local value, on small in-JVM fabrics (ranks as threads). */
class SyncLayerTest {
  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  /** Builds rank r's scheduler layer of {@code t} (no PP channels unless pp > 1). */
  private static SyncLayer layer(ProtocolVersion v, Topology t, LocalFabric f, int r) {
    var c = t.coords(r);
    var fromPrev = c.pp() > 0 ? f.channel(r - t.tpSize(), r) : null;
    var toNext = c.pp() < t.pp() - 1 ? f.channel(r, r + t.tpSize()) : null;
    return new SyncLayer(v, new SyncGroups(f.group("tp", t.attnTpGroup(r), r), f.group("cp", t.attnCpGroup(r), r),
        f.group("g", t.cpTpGroup(r), r), null, fromPrev, toNext));
  }

  /** Runs {@code body} on every rank concurrently and returns the results by rank. */
  private <T> List<T> onRanks(int n, IntFunction<T> body) throws Exception {
    List<Future<T>> fs = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      int rank = r;
      fs.add(pool.submit(() -> body.apply(rank)));
    }
    List<T> out = new ArrayList<>();
    for (Future<T> f : fs) {
      out.add(f.get());
    }
    return out;
  }

  @Test
  void pre20460SkipsSingletonAttnTpGroups() throws Exception {
    Topology t = Topology.of(1, 2, 1, 1);
    LocalFabric f = new LocalFabric(Duration.ofSeconds(5));
    List<SyncLayer> layers = List.of(layer(ProtocolVersion.PRE20460, t, f, 0), layer(ProtocolVersion.PRE20460, t, f, 1));
    List<long[]> r = onRanks(2, rank -> layers.get(rank).reduce(SyncPoint.S1, ReduceOp.MIN, new long[] {rank + 3}));
    assertArrayEquals(new long[] {3}, r.get(0), "B1: no collective across CP");
    assertArrayEquals(new long[] {4}, r.get(1));
    assertEquals(0, layers.get(0).collectives());
  }

  @Test
  void post20460ReducesOverCpThenTp() throws Exception {
    Topology t = Topology.of(1, 2, 2, 1);
    LocalFabric f = new LocalFabric(Duration.ofSeconds(5));
    List<SyncLayer> layers = new ArrayList<>();
    for (int r = 0; r < 4; r++) {
      layers.add(layer(ProtocolVersion.POST20460, t, f, r));
    }
    List<long[]> r = onRanks(4, rank -> layers.get(rank).reduce(SyncPoint.S3, ReduceOp.MIN,
        new long[] {10 - rank, rank}));
    for (long[] v : r) {
      assertArrayEquals(new long[] {7, 0}, v, "MIN over the whole CP×TP grid");
    }
    assertEquals(2, layers.get(0).collectives(), "attn_cp, then attn_tp");
  }

  @Test
  void mergedUsesOneCollective() throws Exception {
    Topology t = Topology.of(1, 2, 2, 1);
    LocalFabric f = new LocalFabric(Duration.ofSeconds(5));
    List<SyncLayer> layers = new ArrayList<>();
    for (int r = 0; r < 4; r++) {
      layers.add(layer(ProtocolVersion.MERGED, t, f, r));
    }
    List<long[]> r = onRanks(4, rank -> layers.get(rank).reduce(SyncPoint.S4, ReduceOp.MAX,
        new long[] {rank == 2 ? 1 : 0, 0}));
    for (long[] v : r) {
      assertArrayEquals(new long[] {1, 0}, v);
    }
    assertEquals(1, layers.get(3).collectives());
  }

  @Test
  void laterPipelineStagesCopyStageZerosDecision() throws Exception {
    Topology t = Topology.of(1, 1, 2, 2); // stage 0: ranks 0,1; stage 1: ranks 2,3
    LocalFabric f = new LocalFabric(Duration.ofSeconds(5));
    List<SyncLayer> layers = new ArrayList<>();
    for (int r = 0; r < 4; r++) {
      layers.add(layer(ProtocolVersion.MERGED, t, f, r));
    }
    // Stage 1's own values (0) are ignored: it takes exactly what stage 0 decided (B6's fix).
    List<long[]> r = onRanks(4, rank -> layers.get(rank).reduce(SyncPoint.S1, ReduceOp.MIN,
        new long[] {rank < 2 ? 5 + rank : 0}));
    for (long[] v : r) {
      assertArrayEquals(new long[] {5}, v);
    }
    assertEquals(0, layers.get(2).collectives(), "no symmetric cross-stage collective (B19)");
  }

  @Test
  void aStageThatExpectsAnotherSyncPointFails() throws Exception {
    Topology t = Topology.of(1, 1, 1, 2);
    LocalFabric f = new LocalFabric(Duration.ofSeconds(5));
    SyncLayer s0 = layer(ProtocolVersion.MERGED, t, f, 0);
    SyncLayer s1 = layer(ProtocolVersion.MERGED, t, f, 1);
    s0.reduce(SyncPoint.S1, ReduceOp.MIN, new long[] {1});
    InvariantViolation e = assertThrows(InvariantViolation.class,
        () -> s1.reduce(SyncPoint.S2, ReduceOp.MIN, new long[] {0}));
    assertEquals(Invariant.CollectiveMatching, e.invariant());
  }

  @Test
  void unknownVersionIsOneLine() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProtocolVersion.parse("v2"));
    assertEquals("unknown protocol version 'v2'; expected one of pre20460, post20460, merged, pipelined,"
        + " unified", e.getMessage());
    assertEquals(ProtocolVersion.MERGED, ProtocolVersion.parse("merged"));
  }
}
