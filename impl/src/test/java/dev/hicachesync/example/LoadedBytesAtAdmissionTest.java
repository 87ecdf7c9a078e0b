package dev.hicachesync.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.api.HiCacheConfig;
import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.api.ThreadMode;
import org.junit.jupiter.api.Test;

/**
 * The readiness contract, on the worked example's loop: at admission, after {@link HiCacheRank#awaitLoaded},
 * every page of the request's cached prefix (device hits, and host hits just loaded back, its own or an
 * earlier request's) holds the KV its tokens were prefilled with, stepped and free-running. The example's
 * device pool ({@code HostMemoryDeviceTier}) moves a copy's bytes only when the copy is observed, so a loop
 * that read before the wait (or a wait that waited for nothing) would read old bytes on every loaded-back
 * page: the check bites whenever pages were loaded back, which each run asserts.
 */
class LoadedBytesAtAdmissionTest {
  private static final long SEED = 11;

  @Test
  void steppedPrefixPagesHoldTheirKvAtAdmission() throws InterruptedException {
    check(ThreadMode.STEPPED, "merged");
    check(ThreadMode.STEPPED, "post20460");
  }

  @Test
  void freeRunningPrefixPagesHoldTheirKvAtAdmission() throws InterruptedException {
    for (int run = 0; run < 3; run++) { // each run a different interleaving of the copy-completion thread
      check(ThreadMode.FREE_RUNNING, "merged");
    }
  }

  private static void check(ThreadMode mode, String version) throws InterruptedException {
    HiCacheConfig cfg = HiCacheConfig.builder().pageSize(16).devicePages(48).hicacheRatio(1.5)
        .parallelism(1, 2, 2, 1).protocolVersion(version).storagePrefetchPolicy("timeout").writePolicy("write_through")
        .prefetchThresholdTokens(32).loadBackThresholdTokens(16).ioBatchPages(4).build();
    ServingLoopExample.Report r = new ServingLoopExample(cfg, 400, SEED, mode).run();
    String what = mode + " " + version + " (seed " + SEED + "): prefix pages read at admission per rank "
        + r.prefixPagesRead() + ", wrong " + r.wrongPrefixPages() + ", host-hit tokens loaded back "
        + r.hostHitTokens();
    System.out.println("loaded bytes at admission, " + what);
    assertTrue(r.hostHitTokens().get(0) > 0, "nothing was loaded back, the check cannot bite: " + what);
    for (int rank = 0; rank < r.wrongPrefixPages().size(); rank++) {
      assertTrue(r.prefixPagesRead().get(rank) > 0, "rank " + rank + " read no prefix: " + what);
      assertEquals(0, r.wrongPrefixPages().get(rank), "rank " + rank + " read pages before their bytes landed: " + what);
    }
    assertEquals(1, r.treeDigests().stream().distinct().count(), "TreeAgreement: " + r.treeDigests());
  }
}
