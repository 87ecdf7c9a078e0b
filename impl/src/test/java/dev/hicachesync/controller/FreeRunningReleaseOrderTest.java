package dev.hicachesync.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.api.CachedRequest;
import dev.hicachesync.api.HiCacheConfig;
import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.api.HiCacheStorage;
import dev.hicachesync.api.InJvmCluster;
import dev.hicachesync.api.internal.Seam;
import dev.hicachesync.api.ThreadMode;
import dev.hicachesync.storage.ForwardingStorageBackend;
import dev.hicachesync.storage.MemoryStorageBackend;
import dev.hicachesync.storage.PageKey;
import dev.hicachesync.storage.StorageBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A TreeAgreement divergence once seen in {@code FreeRunningServingLoopTest.mergedOnCp2Tp2} (about 1 run in 80):
 * {@code hostReleaseQueue} has two producers, the prefetch thread (S7's slots past the hit) and the
 * scheduler (an aborted prefetch's tail, S6), and S3 pops the MIN count of whole entries; free-running,
 * their order depended on whether this rank's S7 had run when the scheduler stopped the prefetch, and a
 * pass took operations queued while it ran. Here the prefetch thread is held inside S7's storage query so
 * that both happen deterministically; the release queue must come out in the order the stepped mode (and
 * every other rank) has.
 */
class FreeRunningReleaseOrderTest {
  private static final int PS = 4;
  private static final HiCacheConfig CFG = HiCacheConfig.builder().pageSize(PS).devicePages(16).hicacheRatio(2)
      .prefetchThresholdTokens(PS).storagePrefetchPolicy("wait_complete").parallelism(1, 1, 1, 1).build();
  private static final int[] X = prompt(100, 5);
  private static final int[] Z = prompt(200, 4);
  private static final int[] Y = prompt(300, 4);

  /** A pass takes the operations queued when it was handed over, not one queued while it runs. */
  @Test
  void aPassTakesOnlyWhatWasQueuedAtItsHandOver() throws Exception {
    GatedBackend l3 = backedUp();
    try (HiCacheRank r = rank(l3, ThreadMode.FREE_RUNNING)) {
      CacheController c = Seam.controller(r);
      r.runPrefetchThread(); // step 1: nothing to hand over yet
      issue(r, "x", X);
      r.checkHicacheEvents();
      l3.arm();
      r.runPrefetchThread(); // step 2: the pass holds x and stops inside x's storage query
      l3.awaitBlocked();
      issue(r, "y", Y); // queued while that pass runs
      l3.open();
      assertTrue(r.awaitThreadsIdle(5_000));
      assertEquals(1, c.view().queueSizes()[5], "y went into the pass handed over before it was queued");
    }
  }

  /**
   * An abort (S6) of a prefetch whose S7 pass was handed over but has not run here yet: its tail is queued
   * after the pass's S7 entries, as where the pass had already run.
   */
  @ParameterizedTest
  @EnumSource(ThreadMode.class)
  void anAbortsTailFollowsTheHandedPassesEntries(ThreadMode mode) throws Exception {
    GatedBackend l3 = backedUp();
    try (HiCacheRank r = rank(l3, mode)) {
      CacheController c = Seam.controller(r);
      r.runPrefetchThread(); // step 1: nothing to hand over yet
      issue(r, "x", X);
      issue(r, "z", Z);
      r.checkHicacheEvents();
      CountDownLatch aborted = new CountDownLatch(1);
      if (mode == ThreadMode.FREE_RUNNING) {
        l3.arm();
        r.runPrefetchThread(); // x and z handed over; the thread stops inside x's storage query
        l3.awaitBlocked();
        Thread scheduler = new Thread(() -> {
          r.releaseAbortedRequest("x"); // S6 while x's S7 has not run on this rank
          aborted.countDown();
        });
        scheduler.start();
        // Give a wrong S6 (one that does not wait for the handed pass) the time to queue its tail first; the
        // right one is still waiting when this ends, so the verdict below does not depend on the bound.
        aborted.await(500, TimeUnit.MILLISECONDS);
        l3.open();
        scheduler.join(10_000);
      } else {
        r.runPrefetchThread();
        r.releaseAbortedRequest("x");
        aborted.countDown();
      }
      assertTrue(aborted.await(10, TimeUnit.SECONDS), "S6 did not return");
      assertTrue(r.awaitThreadsIdle(5_000));
      List<Integer> sizes = new ArrayList<>();
      for (int[] slots : c.state().queues().queuedReleases()) {
        sizes.add(slots.length);
      }
      // x: 3 of 5 pages hit, 2 past the hit at S7; z: 2 of 4 hit, 2 past; then x's abort frees its 3 hit pages.
      assertEquals(List.of(2, 2, 3), sizes, "release queue (pages per entry, head first)");
    }
  }

  /** An L3 holding the first pages of X (3) and Z (2), written through by a rank of its own. */
  private static GatedBackend backedUp() {
    GatedBackend l3 = new GatedBackend(new MemoryStorageBackend());
    try (HiCacheRank w = rank(l3, ThreadMode.STEPPED)) {
      w.runPrefetchThread();
      w.checkHicacheEvents();
      for (int[] p : List.of(java.util.Arrays.copyOf(X, 3 * PS), java.util.Arrays.copyOf(Z, 2 * PS))) {
        CachedRequest q = w.allocForExtend("w" + p[0], w.matchPrefix(p), 0);
        w.cacheUnfinishedReq(q);
        w.cacheFinishedReq(q);
      }
      for (int s = 0; s < 4; s++) {
        w.runPrefetchThread();
        w.checkHicacheEvents();
      }
      assertTrue(w.awaitThreadsIdle(5_000));
    }
    return l3;
  }

  private static void issue(HiCacheRank r, String rid, int[] prompt) {
    assertTrue(r.prefetchFromStorage(rid, r.matchPrefix(prompt)), "prefetch " + rid + " not issued");
  }

  private static HiCacheRank rank(StorageBackend l3, ThreadMode mode) {
    return HiCacheRank.builder(CFG).groups(InJvmCluster.of(CFG, Duration.ofSeconds(5)).groups(0))
        .storage(HiCacheStorage.of(l3)).threadMode(mode).build();
  }

  private static int[] prompt(int first, int pages) {
    int[] t = new int[pages * PS];
    for (int i = 0; i < t.length; i++) {
      t[i] = first + i;
    }
    return t;
  }

  /** An L3 whose storage query, once armed, stops the caller until {@link #open()}. */
  private static final class GatedBackend extends ForwardingStorageBackend {
    private volatile CountDownLatch gate;
    private final CountDownLatch blocked = new CountDownLatch(1);

    GatedBackend(StorageBackend inner) {
      super(inner);
    }

    void arm() {
      gate = new CountDownLatch(1);
    }

    void awaitBlocked() throws InterruptedException {
      assertTrue(blocked.await(10, TimeUnit.SECONDS), "the prefetch thread never queried storage");
    }

    void open() {
      gate.countDown();
    }

    @Override
    public int leadingHits(List<PageKey> keys) {
      CountDownLatch g = gate;
      if (g != null) {
        blocked.countDown();
        try {
          g.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return inner().leadingHits(keys);
    }
  }
}
