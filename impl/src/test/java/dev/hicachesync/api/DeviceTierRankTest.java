package dev.hicachesync.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.tier.DeviceTier;
import dev.hicachesync.tier.HostMemoryDeviceTier;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A rank built with the engine's device tier ({@link HiCacheRankBuilder#deviceTier}) moves the engine's KV
 * bytes, with no simulator seam: what prefill wrote into device pages is written through to the host, and
 * after the device copy is evicted and the pages are scribbled over, a load-back brings the same bytes back
 * into the pages the rank allocates, readable once {@link HiCacheRank#awaitLoaded} returns. The public
 * host-memory tier stands in for JCuda here (same contract, {@code DeviceTierContractTest}).
 */
class DeviceTierRankTest {
  private static final int LAYERS = 2;
  private static final int LAYER_BYTES = 64;

  @Test
  void prefillBytesComeBackThroughWriteThroughEvictionAndLoadBack() {
    HiCacheConfig cfg = HiCacheConfig.builder().pageSize(4).devicePages(8).hicacheRatio(2)
        .loadBackThresholdTokens(4).parallelism(1, 1, 1, 1).build();
    HostMemoryDeviceTier tier = new HostMemoryDeviceTier(8, LAYERS, LAYER_BYTES);
    InJvmCluster cluster = InJvmCluster.of(cfg, Duration.ofSeconds(5));
    try (tier; HiCacheRank rank = HiCacheRank.builder(cfg).groups(cluster.groups(0)).deviceTier(tier).build()) {
      int[] prompt = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
      HiCacheRankTest.step(rank);
      CachedRequest first = rank.allocForExtend("a", rank.matchPrefix(prompt), 0);
      int[] fresh = first.freshPages();
      assertEquals(3, fresh.length);
      for (int j = 0; j < fresh.length; j++) {
        tier.write(fresh[j], pattern(j)); // the engine's prefill
      }
      rank.cacheUnfinishedReq(first); // write-through to the host starts
      rank.cacheFinishedReq(first);
      for (int s = 0; s < 3; s++) {
        HiCacheRankTest.step(rank); // S1 consumes the write ack
      }
      assertEquals(3, rank.evict(3), "the prompt's device pages are evictable once on the host");
      for (int p = 0; p < tier.capacityPages(); p++) {
        tier.write(p, ByteBuffer.allocate(tier.pageBytes())); // scribble: only a load-back can restore them
      }
      PrefixMatch m = rank.matchPrefix(prompt);
      assertEquals(12, m.hostTokens(), m.toString());
      int loaded = rank.initLoadBack(m);
      assertEquals(12, loaded);
      CachedRequest second = rank.allocForExtend("b", m, loaded);
      assertFalse(rank.isLoaded(second), "the load-back's copy is in flight");
      rank.awaitLoaded(second); // the load-back copy has landed (S2 pops its ack at a later event check)
      assertTrue(rank.isLoaded(second));
      int[] pages = second.devicePages();
      assertEquals(3, pages.length);
      for (int j = 0; j < pages.length; j++) {
        ByteBuffer got = ByteBuffer.allocate(tier.pageBytes());
        tier.read(pages[j], got);
        assertArrayEquals(pattern(j).array(), got.array(), "device page " + pages[j] + " (prompt page " + j + ")");
      }
      rank.cacheFinishedReq(second);
      assertTrue(rank.awaitThreadsIdle(1_000));
    }
  }

  @Test
  void aTierSmallerThanTheConfigurationIsRefusedInOneLine() {
    HiCacheConfig cfg = HiCacheConfig.builder().pageSize(4).devicePages(8).parallelism(1, 1, 1, 1).build();
    try (DeviceTier tier = new HostMemoryDeviceTier(4, 1, 8)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HiCacheRank.builder(cfg)
          .groups(InJvmCluster.of(cfg, Duration.ofSeconds(1)).groups(0)).deviceTier(tier).build());
      assertEquals("rank 0: the device tier has 4 pages, the configuration's devicePages is 8", e.getMessage());
    }
  }

  /** Page {@code j}'s bytes as the engine's forward pass would have written them. */
  private static ByteBuffer pattern(int j) {
    ByteBuffer b = ByteBuffer.allocate(LAYERS * LAYER_BYTES);
    for (int i = 0; i < b.capacity(); i++) {
      b.put(i, (byte) (31 * j + i + 1));
    }
    return b;
  }
}
