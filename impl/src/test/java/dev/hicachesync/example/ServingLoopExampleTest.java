package dev.hicachesync.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.api.HiCacheConfig;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Runs the worked example ({@link ServingLoopExample}) on several grids and versions and checks what an
 * engine relies on: every rank of the domain ends with the same tree and the same request outcomes, the
 * cache was used (device and host hits), and every rank is quiet after the drain (no ack, prefetch, lock or
 * page left).
 */
class ServingLoopExampleTest {

  @ParameterizedTest(name = "cp={0} tp={1} {2} {3} {4}")
  @CsvSource({
      "2, 2, merged, timeout, write_through",
      "2, 1, post20460, wait_complete, write_through_selective",
      "1, 2, merged, best_effort, write_back",
      "2, 2, unified, timeout, write_through",
      "2, 1, unified, wait_complete, write_through_selective",
  })
  void everyRankEndsWithTheSameTreeAndQuiet(int cp, int tp, String version, String prefetch, String write)
      throws InterruptedException {
    HiCacheConfig cfg = HiCacheConfig.builder().pageSize(16).devicePages(48).hicacheRatio(1.5)
        .parallelism(1, cp, tp, 1).protocolVersion(version).storagePrefetchPolicy(prefetch).writePolicy(write)
        .prefetchThresholdTokens(32).loadBackThresholdTokens(16).ioBatchPages(4).build();
    long seed = 11;
    ServingLoopExample.Report r = new ServingLoopExample(cfg, 400, seed).run();
    String onSeed = " (seed " + seed + ")";
    assertEquals(1, r.treeDigests().stream().distinct().count(), "TreeAgreement: " + r.treeDigests() + onSeed);
    assertEquals(1, r.finished().stream().distinct().count(), "finished per rank " + r.finished() + onSeed);
    assertEquals(1, r.hostHitTokens().stream().distinct().count(), "host hits per rank " + r.hostHitTokens());
    int requests = ServingLoopExample.requests(seed, 400, 16).size();
    assertEquals(requests, r.finished().get(0) + r.aborted().get(0), "every request finished or aborted" + onSeed);
    assertTrue(r.deviceHitTokens().get(0) > 0, "no device hit: the cache was not used" + onSeed);
    for (List<String> errors : r.notQuiet()) {
      assertEquals(List.of(), errors, "a rank is not quiet after the drain" + onSeed);
    }
  }
}
