package dev.hicachesync.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.collective.LocalFabric;
import dev.hicachesync.storage.MemoryStorageBackend;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.sync.SyncGroups;
import dev.hicachesync.sync.SyncLayer;
import dev.hicachesync.sync.SyncObserver;
import dev.hicachesync.topology.Topology;
import dev.hicachesync.tree.TreeNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The controller's sync points on a two-rank CP fabric (cp=2, attn_tp=1), ranks as threads. */
class SyncPointsTest {
  private static final int PS = 4;
  private final ExecutorService pool = Executors.newFixedThreadPool(2);

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  private static ControllerConfig config(boolean storage, PrefetchPolicy p) {
    return new ControllerConfig(PS, 16, 16, WritePolicy.WRITE_THROUGH, p, storage, 2 * PS, PS, 2, 10, 0,
        1024);
  }

  private record Rank(CacheController c, ManualEnv env) {}

  private static List<Rank> ranks(ProtocolVersion v, boolean storage, PrefetchPolicy p, MemoryStorageBackend st) {
    Topology t = Topology.of(1, 2, 1, 1);
    LocalFabric f = new LocalFabric(Duration.ofSeconds(5));
    List<Rank> out = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      ManualEnv env = new ManualEnv();
      SyncLayer sched = new SyncLayer(v, new SyncGroups(f.group("tp", t.attnTpGroup(r), r),
          f.group("cp", t.attnCpGroup(r), r), f.group("g", t.cpTpGroup(r), r), null, null, null));
      SyncLayer pf = new SyncLayer(v, new SyncGroups(f.group("ptp", t.attnTpGroup(r), r),
          f.group("pcp", t.attnCpGroup(r), r), f.group("pg", t.cpTpGroup(r), r), null, null, null));
      out.add(new Rank(new CacheController(config(storage, p), env, sched, pf, SyncObserver.NONE, st,
          "r" + r), env));
    }
    return out;
  }

  /** Runs {@code body} on both ranks at once (the collectives need both). */
  private void both(IntConsumer body) throws Exception {
    List<Future<?>> fs = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      int rank = r;
      fs.add(pool.submit(() -> body.accept(rank)));
    }
    for (Future<?> f : fs) {
      f.get();
    }
  }

  private static int[] seq(int from, int pages) {
    return IntStream.range(from, from + pages * PS).toArray();
  }

  /** Inserts a two-page key on one rank: write-through queues one write ack. */
  private static TreeNode insert(CacheController c) {
    return c.insert(seq(0, 2), c.allocateDevice(2)).newNode();
  }

  /** S1 pops the MIN of the ranks' completed write acks: R0's early completion changes nothing alone. */
  @Test
  void writingCheckPopsTheMinimum() throws Exception {
    List<Rank> rs = ranks(ProtocolVersion.POST20460, false, PrefetchPolicy.BEST_EFFORT, null);
    TreeNode n0 = insert(rs.get(0).c());
    TreeNode n1 = insert(rs.get(1).c());
    assertEquals(1, n0.lockRef());
    rs.get(0).env().copies.get(0).done = true;
    both(r -> rs.get(r).c().checkHicacheEvents());
    assertEquals(1, n0.lockRef(), "R1 is not done: nobody pops");
    assertEquals(1, n1.lockRef());
    rs.get(1).env().copies.get(0).done = true;
    both(r -> rs.get(r).c().checkHicacheEvents());
    assertEquals(0, n0.lockRef());
    assertEquals(0, n1.lockRef());
    assertEquals(rs.get(0).c().view().digest(), rs.get(1).c().view().digest());
  }

  /** B1: under pre20460 with attn_tp = 1 each rank pops its own count, and the ranks' digests part. */
  @Test
  void pre20460PopsLocally() throws Exception {
    List<Rank> rs = ranks(ProtocolVersion.PRE20460, false, PrefetchPolicy.BEST_EFFORT, null);
    TreeNode n0 = insert(rs.get(0).c());
    TreeNode n1 = insert(rs.get(1).c());
    rs.get(0).env().copies.get(0).done = true;
    both(r -> rs.get(r).c().checkHicacheEvents());
    assertEquals(0, n0.lockRef());
    assertEquals(1, n1.lockRef());
    assertNotEquals(rs.get(0).c().view().digest().acks(), rs.get(1).c().view().digest().acks());
    assertNotEquals(rs.get(0).c().view().digest().tree(), rs.get(1).c().view().digest().tree());
  }

  /** S123 in one collective; S3 drains the backup acks only once both ranks' storage writes landed. */
  @Test
  void mergedDrainsBackupAcksByTheMinimum() throws Exception {
    MemoryStorageBackend st = new MemoryStorageBackend();
    List<Rank> rs = ranks(ProtocolVersion.MERGED, true, PrefetchPolicy.BEST_EFFORT, st);
    TreeNode n0 = insert(rs.get(0).c());
    TreeNode n1 = insert(rs.get(1).c());
    rs.forEach(r -> r.env().copies.get(0).done = true);
    both(r -> rs.get(r).c().checkHicacheEvents());
    assertEquals(1, n0.hostRef(), "storage backup started: host protected");
    rs.get(0).env().runBackground();
    both(r -> rs.get(r).c().checkHicacheEvents());
    assertEquals(1, n0.hostRef(), "R1's write has not landed: the ack waits");
    rs.get(1).env().runBackground();
    both(r -> rs.get(r).c().checkHicacheEvents());
    assertEquals(0, n0.hostRef());
    assertEquals(0, n1.hostRef());
    assertEquals(rs.get(0).c().view().digest(), rs.get(1).c().view().digest());
  }

  /**
   * S7 and S5: R0's storage has 4 pages, R1's only 2; the MIN (2 pages) is what both read and insert —
   * never R0's 4 (B1's L3 variant).
   */
  @Test
  void prefetchInsertsTheMinimumOfTheRanksHits() throws Exception {
    MemoryStorageBackend st = new MemoryStorageBackend();
    List<Rank> rs = ranks(ProtocolVersion.MERGED, true, PrefetchPolicy.WAIT_COMPLETE, st);
    // Fill each rank's storage shard through a throwaway tree: R0 with 4 pages, R1 with 2.
    int[] key = seq(100, 4);
    var keys = new ArrayList<dev.hicachesync.storage.PageKey>();
    dev.hicachesync.storage.PageKey prev = null;
    for (int i = 0; i < 4; i++) {
      prev = dev.hicachesync.storage.PageKey.chain(prev, java.util.Arrays.copyOfRange(key, i * PS, (i + 1) * PS));
      keys.add(prev);
    }
    for (int i = 0; i < 4; i++) {
      st.put(keys.get(i).withSuffix("r0"), java.nio.ByteBuffer.allocate(8));
      if (i < 2) {
        st.put(keys.get(i).withSuffix("r1"), java.nio.ByteBuffer.allocate(8));
      }
    }
    both(r -> {
      CacheController c = rs.get(r).c();
      assertTrue(c.prefetchFromStorage("q", c.matchPrefix(key), key));
      c.prefetchThreadStep(); // S7
    });
    rs.forEach(r -> r.env().runBackground()); // deposits, then every read batch
    rs.forEach(r -> r.env().runBackground());
    List<Boolean> done = new ArrayList<>(List.of(false, false));
    both(r -> done.set(r, rs.get(r).c().checkPrefetchProgress("q"))); // S4 + S5
    assertEquals(List.of(true, true), done);
    for (Rank r : rs) {
      assertEquals(2 * PS, r.c().matchPrefix(key).hostTokens(), "exactly the MIN was inserted");
    }
    assertEquals(rs.get(0).c().view().digest(), rs.get(1).c().view().digest());
  }
}
