package dev.hicachesync.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.api.HiCacheConfig;
import dev.hicachesync.api.ThreadMode;
import java.util.List;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * The worked example with the ranks' own threads free-running ({@link ThreadMode#FREE_RUNNING}), as an
 * engine runs them: the prefetch thread's S7, the storage reads and writes and the copy completions race
 * each rank's scheduler, so what each rank sees locally (leading done acks, pages read, S7 outcomes arrived)
 * differs run to run and rank to rank. What the sync points reduce must not: every rank ends with the same
 * tree (TreeAgreement), the same request outcomes, and quiet (no ack, prefetch, lock, slot or task left).
 *
 * <p>Storage on with {@code wait_complete}, so every prefetch is read to its agreed hit, S7 runs on the
 * prefetch thread and backups on the backup thread; repeated, since each run is a different interleaving.
 */
class FreeRunningServingLoopTest {

  /**
   * A free run, then one whose threads catch up every 20th step, each checked in full; the second must read
   * from storage, for the reason given at {@link #unifiedRuns} (free, 20 of 20 merged runs read here, 1 Dec
   * 2026 about 23:45 UTC; the catch-up keeps the assertion from depending on a faster or busier machine).
   */
  @RepeatedTest(3)
  void mergedOnCp2Tp2() throws InterruptedException {
    check(2, 2, 1, "merged", 0);
    ServingLoopExample.Report r = check(2, 2, 1, "merged", 20);
    assertTrue(r.storageHitTokens().get(0) > 0, "no storage hit: the prefetch and I/O threads did no work");
  }

  @RepeatedTest(2)
  void post20460OnCp2Pp2() throws InterruptedException {
    check(2, 1, 2, "post20460"); // a later stage waits for its own reads on the threads (awaitCondition)
  }

  /**
   * Version {@code unified}: S7 on the prefetch thread and the per-batch completion sync (#27010) on the
   * completion-sync thread race each other on every rank; each has its own groups (SGLang's {@code
   * prefetch_hits_sync_groups} and {@code prefetch_completion_sync_groups}). On one shared set, 3 of 3 runs
   * ended in CollectiveMatching on {@code pf_cp_tp} (S5 on one rank met S7 on another).
   */
  @Test
  void unifiedOnCp2Tp2() throws InterruptedException {
    unifiedRuns(2, 2);
  }

  @Test
  void unifiedOnTp2() throws InterruptedException {
    unifiedRuns(1, 2);
  }

  /**
   * Two runs as free as an engine's with an empty forward pass, then five in which every 20th step lets the
   * rank's threads catch up (as a real forward pass's time would); each run a different interleaving, each
   * checked in full. At least one of the five must have read from storage, so that the completion sync raced
   * S7. Why not ask it of the free runs: there the I/O threads fall steps behind, the host pool stays held and
   * the storage hits are revoked as "pool short" (stepped: none). Many free runs read nothing: one CI run had 0
   * of 5 and failed a correct build; on this project's VM (1 Dec 2026, 23:45 UTC) 6 of 20 runs read on cp 2 ×
   * tp 2 and 13 of 20 on tp 2. With the catch-up every 20th step: 20 of 20 read (976 tokens or more) on each,
   * and 12 of 12 with two more busy threads on the two cores.
   */
  private static void unifiedRuns(int cp, int tp) throws InterruptedException {
    for (int run = 0; run < 2; run++) {
      check(cp, tp, 1, "unified", 0);
    }
    int withReads = 0;
    for (int run = 0; run < 5; run++) {
      withReads += check(cp, tp, 1, "unified", 20).storageHitTokens().get(0) > 0 ? 1 : 0;
    }
    assertTrue(withReads >= 1, "only " + withReads + " of 5 runs read from storage: the race was not exercised");
  }

  private static ServingLoopExample.Report check(int cp, int tp, int pp, String version)
      throws InterruptedException {
    return check(cp, tp, pp, version, 0);
  }

  private static ServingLoopExample.Report check(int cp, int tp, int pp, String version, int forwardPassEvery)
      throws InterruptedException {
    HiCacheConfig cfg = HiCacheConfig.builder().pageSize(16).devicePages(48).hicacheRatio(1.5)
        .parallelism(1, cp, tp, pp).protocolVersion(version).storagePrefetchPolicy("wait_complete")
        .writePolicy("write_through").prefetchThresholdTokens(32).loadBackThresholdTokens(16).ioBatchPages(2)
        .build();
    long seed = 11;
    ServingLoopExample.Report r = new ServingLoopExample(cfg, 400, seed, ThreadMode.FREE_RUNNING, forwardPassEvery).run();
    assertEquals(1, r.treeDigests().stream().distinct().count(), "TreeAgreement: " + r.treeDigests());
    assertEquals(1, r.finished().stream().distinct().count(), "finished per rank " + r.finished());
    int requests = ServingLoopExample.requests(seed, 400, 16).size();
    assertEquals(requests, r.finished().get(0) + r.aborted().get(0), "every request finished or aborted");
    assertTrue(r.deviceHitTokens().get(0) > 0, "no device hit: the cache was not used");
    assertEquals(1, r.storageHitTokens().stream().distinct().count(), "storage hits per rank " + r.storageHitTokens());
    for (List<String> errors : r.notQuiet()) {
      assertEquals(List.of(), errors, "a rank is not quiet after the drain");
    }
    return r;
  }
}
