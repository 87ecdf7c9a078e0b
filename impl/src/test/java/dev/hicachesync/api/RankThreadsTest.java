package dev.hicachesync.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.storage.ForwardingStorageBackend;
import dev.hicachesync.storage.MemoryStorageBackend;
import dev.hicachesync.storage.PageKey;
import dev.hicachesync.storage.StorageBackend;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The rank's own threads do SGLang's threads' work, in both modes: the storage-hit query (S7's local value)
 * runs on the prefetch thread, the storage write of a backup on the backup thread, the storage read of a
 * prefetch on the prefetch I/O thread, never on the scheduler; {@code close()} ends them. One rank writes a
 * prompt through to a shared L3; a second rank, with a fresh tree, prefetches it from there.
 */
class RankThreadsTest {

  @ParameterizedTest
  @EnumSource(ThreadMode.class)
  void storageWorkRunsOnTheRanksOwnThreads(ThreadMode mode) {
    ThreadRecordingBackend l3 = new ThreadRecordingBackend(new MemoryStorageBackend());
    HiCacheConfig cfg = HiCacheConfig.builder().pageSize(4).devicePages(8).hicacheRatio(2)
        .prefetchThresholdTokens(4).storagePrefetchPolicy("wait_complete").parallelism(1, 1, 1, 1).build();
    int[] prompt = {1, 2, 3, 4, 5, 6, 7, 8};
    try (HiCacheRank writer = rank(cfg, l3, mode)) {
      HiCacheRankTest.step(writer);
      CachedRequest r = writer.allocForExtend("w", writer.matchPrefix(prompt), 0);
      writer.cacheUnfinishedReq(r); // write-through; S1 then starts the L3 backup
      writer.cacheFinishedReq(r);
      for (int s = 0; s < 4; s++) {
        writer.awaitThreadsIdle(5_000);
        HiCacheRankTest.step(writer);
      }
      assertTrue(writer.awaitThreadsIdle(5_000));
      assertEquals(Set.of("hicache-backup-rank0"), l3.threads("put"), "who wrote to L3");
    }
    try (HiCacheRank reader = rank(cfg, l3, mode)) {
      reader.runPrefetchThread();
      assertTrue(reader.prefetchFromStorage("p", reader.matchPrefix(prompt)), "prefetch not issued");
      reader.checkHicacheEvents();
      boolean admitted = false;
      for (int s = 0; s < 20 && !admitted; s++) {
        reader.runPrefetchThread();
        reader.awaitThreadsIdle(5_000);
        reader.checkHicacheEvents();
        admitted = reader.checkPrefetchProgress("p");
      }
      assertTrue(admitted, "the prefetch never finished");
      assertEquals(8, reader.matchPrefix(prompt).hostTokens(), "the prefetched pages are in the host tree");
      assertEquals(Set.of("hicache-prefetch-rank0"), l3.threads("leadingHits"), "who asked L3 for hits (S7)");
      assertEquals(Set.of("hicache-prefetch-io-rank0"), l3.threads("get"), "who read from L3");
    }
  }

  private static HiCacheRank rank(HiCacheConfig cfg, StorageBackend l3, ThreadMode mode) {
    return HiCacheRank.builder(cfg).groups(InJvmCluster.of(cfg, Duration.ofSeconds(5)).groups(0))
        .storage(HiCacheStorage.of(l3)).threadMode(mode).build();
  }

  /** An L3 that remembers which threads called each of its methods. */
  private static final class ThreadRecordingBackend extends ForwardingStorageBackend {
    private final Map<String, Set<String>> calls = new ConcurrentHashMap<>();

    ThreadRecordingBackend(StorageBackend inner) {
      super(inner);
    }

    Set<String> threads(String method) {
      return new TreeSet<>(calls.getOrDefault(method, Set.of()));
    }

    private void record(String method) {
      calls.computeIfAbsent(method, m -> ConcurrentHashMap.newKeySet()).add(Thread.currentThread().getName());
    }

    @Override
    public boolean exists(PageKey key) {
      record("exists");
      return inner().exists(key);
    }

    @Override
    public int leadingHits(List<PageKey> keys) {
      record("leadingHits");
      return inner().leadingHits(keys);
    }

    @Override
    public boolean get(PageKey key, ByteBuffer dst) {
      record("get");
      return inner().get(key, dst);
    }

    @Override
    public void put(PageKey key, ByteBuffer src) {
      record("put");
      inner().put(key, src);
    }

  }
}
