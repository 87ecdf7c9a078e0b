package dev.hicachesync.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.collective.CollectiveMismatchException;
import dev.hicachesync.collective.CollectiveTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What an engine sees from the API on bad input, a missing rank and wrong groups (docs/tutorial/embed-a-rank.md). */
class HiCacheRankTest {

  /** One step with nothing but its required calls. */
  static void step(HiCacheRank rank) {
    rank.runPrefetchThread();
    rank.checkHicacheEvents();
  }

  private static HiCacheConfig.Builder grid(int cp, int tp) {
    return HiCacheConfig.builder().pageSize(16).devicePages(8).parallelism(1, cp, tp, 1);
  }

  @Test
  void aMissingRankIsATimeoutNamingTheWaitNotAHang() {
    HiCacheConfig cfg = grid(2, 1).build();
    InJvmCluster cluster = InJvmCluster.of(cfg, Duration.ofMillis(300));
    HiCacheRank rank0 = HiCacheRank.builder(cfg).groups(cluster.groups(0)).build();
    cluster.groups(1); // rank 1 exists but never reaches its event check
    rank0.runPrefetchThread();
    CollectiveTimeoutException e = assertThrows(CollectiveTimeoutException.class, rank0::checkHicacheEvents);
    assertTrue(e.getMessage().contains("S123"), e.getMessage());
  }

  /**
   * Rank 1 aborts a prefetching request where rank 0 runs its event check: the k-th collectives of the
   * scheduler's CP×TP group are S123 (5 values) and S6 (a barrier), so both ranks fail at once, naming both.
   */
  @Test
  void aReorderedCallIsAMismatchNamingBothSites() throws Exception {
    HiCacheConfig cfg = grid(2, 1).hicacheRatio(2).prefetchThresholdTokens(16).build();
    InJvmCluster cluster = InJvmCluster.of(cfg, Duration.ofSeconds(20));
    HiCacheStorage storage = HiCacheStorage.memory();
    HiCacheRank[] ranks = new HiCacheRank[2];
    for (int r = 0; r < 2; r++) {
      ranks[r] = HiCacheRank.builder(cfg.forRank(r)).groups(cluster.groups(r)).storage(storage).build();
    }
    int[] prompt = new int[48];
    java.util.Arrays.fill(prompt, 5);
    for (HiCacheRank rank : ranks) {
      rank.runPrefetchThread(); // nothing issued yet: no S7
      assertTrue(rank.prefetchFromStorage("r", rank.matchPrefix(prompt)), "the prefetch was not issued");
    }
    java.util.concurrent.CompletableFuture<Throwable> rank1 = java.util.concurrent.CompletableFuture.supplyAsync(
        () -> {
          try {
            ranks[1].releaseAbortedRequest("r");
            return null;
          } catch (RuntimeException e) {
            return e;
          }
        });
    CollectiveMismatchException e0 = assertThrows(CollectiveMismatchException.class, ranks[0]::checkHicacheEvents);
    Throwable e1 = rank1.get(30, java.util.concurrent.TimeUnit.SECONDS);
    assertTrue(e1 instanceof CollectiveMismatchException, "rank 1 got " + e1);
    assertTrue(e0.getMessage().contains("S123") && e0.getMessage().contains("S6"), e0.getMessage());
  }

  @Test
  void oneRanksRequestLifecycleEvictionAndLoadBack() {
    HiCacheConfig cfg = grid(1, 1).loadBackThresholdTokens(16).build();
    HiCacheRank rank = HiCacheRank.builder(cfg).groups(InJvmCluster.of(cfg, Duration.ofMillis(300)).groups(0))
        .build();
    int[] prompt = new int[48];
    java.util.Arrays.fill(prompt, 7);
    step(rank);
    PrefixMatch miss = rank.matchPrefix(prompt);
    assertEquals(0, miss.deviceTokens());
    CachedRequest req = rank.allocForExtend("r", miss, rank.initLoadBack(miss));
    assertEquals(3, req.freshPages().length);
    rank.cacheUnfinishedReq(req);
    rank.cacheFinishedReq(req);
    assertEquals(48, rank.matchPrefix(prompt).deviceTokens());
    for (int i = 0; i < 3; i++) {
      step(rank); // the write-through lands one step later and S1 consumes it
    }
    assertEquals(java.util.List.of(), rank.quiescenceErrors());
    assertThrows(IllegalStateException.class, () -> rank.cacheFinishedReq(req));
    assertEquals(5, rank.freeDevicePages());
    assertEquals(3, rank.evict(3)); // written through already: the pages stay on the host
    assertEquals(8, rank.freeDevicePages());
    PrefixMatch afterEviction = rank.matchPrefix(prompt);
    assertEquals(0, afterEviction.deviceTokens());
    assertEquals(48, afterEviction.hostTokens());
    assertEquals(48, rank.initLoadBack(afterEviction)); // load back: the copy lands one step later (S2)
    step(rank);
    step(rank);
    assertEquals(48, rank.matchPrefix(prompt).deviceTokens());
    assertEquals(java.util.List.of(), rank.quiescenceErrors());
  }

  @Test
  void groupsOfAnotherRankAreRejectedInOneLine() {
    HiCacheConfig cfg = grid(2, 2).build();
    InJvmCluster cluster = InJvmCluster.of(cfg, Duration.ofMillis(300));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HiCacheRank.builder(cfg.forRank(0)).groups(cluster.groups(3)).build());
    assertEquals("rank 0: its attn_tp group has members [2, 3], the grid dp=1,cp=2,tp=2,pp=1 gives [0, 1]",
        e.getMessage());
  }

  @Test
  void badConfigurationValuesAreOneLineErrors() {
    assertEquals("unknown write policy 'write_sometimes'; expected write_through, write_through_selective or"
        + " write_back", assertThrows(IllegalArgumentException.class,
            () -> grid(1, 1).writePolicy("write_sometimes").build()).getMessage());
    assertEquals("rank must be in [0, 4), got 4",
        assertThrows(IllegalArgumentException.class, () -> grid(2, 2).rank(4).build()).getMessage());
    assertEquals(3, grid(1, 1).devicePages(2).hicacheRatio(1.5).build().hostPages());
    assertEquals(5, grid(1, 1).hicacheSizeBytes(5 * 1024).kvPageBytes(1024).build().hostPages());
  }
}
