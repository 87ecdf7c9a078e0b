package dev.hicachesync.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The step order ({@link SchedulerCall}) enforced at run time, on two ranks (merged, CP 2) each on its own
 * thread: a rank that skips a call fails at once with the call it expected, and its peer fails at the sync
 * point where it waited for that rank, with a message naming the rank, the step and the skipped call; busy or
 * idle, stepped or free-running. The ranks' groups time out after 20 s, so failures well within that came
 * from the sync point, not a timeout (closing the peer may then wait that long: its prefetch thread waits in
 * an S7 the failed rank never makes). Each case prints its row of the
 * skip-detection table (who reports it, when, with what message).
 */
class CallOrderTest {
  private static final int SKIP_STEP = 3;
  private static final int[] PROMPT = prompt();

  /** What a rank's loop leaves out of the skip step. */
  enum Skip { NONE, EVENT_CHECK, PREFETCH_PASS }

  /** Where a rank stopped: the step, the call, and what it threw. */
  record Outcome(int rank, int step, String call, RuntimeException error, long atNanos) {
    @Override
    public String toString() {
      return "rank " + rank + " at step " + step + ", " + call + ": "
          + (error == null ? "no error" : error.getClass().getSimpleName() + ": " + error.getMessage());
    }
  }

  @Test
  void skippedEventCheckWhileBusyIsNamedByThePeerAtThatStepsSyncPoint() throws Exception {
    List<Outcome> o = run("skipped checkHicacheEvents, busy", ThreadMode.STEPPED, Skip.EVENT_CHECK, true);
    assertLocal(o.get(1), SKIP_STEP, "checkPrefetchProgress", "rank 1, step 3: checkPrefetchProgress out of order: expected "
        + "checkHicacheEvents before it");
    assertPeer(o.get(0), "checkHicacheEvents", "rank 1 skipped checkHicacheEvents in step 3");
  }

  @Test
  void skippedEventCheckWhileIdleIsNamedByThePeerAtThatStepsSyncPoint() throws Exception {
    List<Outcome> o = run("skipped checkHicacheEvents, idle", ThreadMode.STEPPED, Skip.EVENT_CHECK, false);
    assertLocal(o.get(1), SKIP_STEP + 1, "runPrefetchThread", "rank 1, step 4: runPrefetchThread out of order: expected "
        + "checkHicacheEvents (step 3 made none)");
    assertPeer(o.get(0), "checkHicacheEvents", "rank 1 skipped checkHicacheEvents in step 3");
  }

  @Test
  void skippedPrefetchPassFreeRunningIsNamedByThePeerAtThatStepsSyncPoint() throws Exception {
    List<Outcome> o = run("skipped runPrefetchThread, free-running", ThreadMode.FREE_RUNNING, Skip.PREFETCH_PASS,
        true);
    assertLocal(o.get(1), SKIP_STEP, "prefetchFromStorage", "rank 1, step 3: prefetchFromStorage out of order: expected "
        + "runPrefetchThread");
    assertPeer(o.get(0), "checkHicacheEvents", "rank 1 skipped runPrefetchThread in step 3");
  }

  /**
   * Four ranks, more than the two stamp slots a sync point carries: the stamps disagree, so every rank makes the
   * per-member round as well, and each peer names the one rank that skipped.
   */
  @Test
  void aSkipAmongFourRanksIsNamedByEveryPeer() throws Exception {
    List<Outcome> o = run("skipped checkHicacheEvents, busy, CP 2 x TP 2", 2, 2, ThreadMode.STEPPED,
        Skip.EVENT_CHECK, true);
    assertLocal(o.get(1), SKIP_STEP, "checkPrefetchProgress", "rank 1, step 3: checkPrefetchProgress out of order: "
        + "expected checkHicacheEvents before it");
    for (int peer : new int[] {0, 2, 3}) {
      assertPeer(o.get(peer), "checkHicacheEvents", "rank 1 skipped checkHicacheEvents in step 3; seen by rank "
          + peer + " at sync point S123");
    }
  }

  @Test
  void ranksInOrderRunClean() throws Exception {
    for (ThreadMode mode : ThreadMode.values()) {
      for (Outcome x : run("in order, " + mode, mode, Skip.NONE, true)) {
        assertEquals(null, x.error(), x.toString());
      }
    }
  }

  /** Out of order on every rank alike (an engine's loop written in another order): each fails at once. */
  @Test
  void aCallOutOfOrderFailsAtOnceNamingTheExpectedCall() {
    HiCacheConfig cfg = HiCacheConfig.builder().pageSize(16).devicePages(8).parallelism(1, 1, 1, 1).build();
    InJvmCluster cluster = InJvmCluster.of(cfg, Duration.ofSeconds(1));
    HiCacheRank fresh = HiCacheRank.builder(cfg).groups(cluster.groups(0)).build();
    assertEquals("rank 0, step 1: checkHicacheEvents out of order: expected runPrefetchThread (a step begins with "
        + "it)", assertThrows(CallOrderException.class, fresh::checkHicacheEvents).getMessage());
    assertThrows(CallOrderException.class, fresh::runPrefetchThread, "a failed rank stays failed");

    HiCacheRank rank = HiCacheRank.builder(cfg).groups(InJvmCluster.of(cfg, Duration.ofSeconds(1)).groups(0)).build();
    rank.runPrefetchThread();
    rank.checkHicacheEvents();
    assertEquals("rank 0, step 2: prefetchFromStorage out of order: expected runPrefetchThread (a step begins with "
        + "it; step 1 is past checkHicacheEvents)", assertThrows(CallOrderException.class,
            () -> rank.prefetchFromStorage("r", rank.matchPrefix(PROMPT))).getMessage());

    HiCacheRank early = HiCacheRank.builder(cfg).groups(InJvmCluster.of(cfg, Duration.ofSeconds(1)).groups(0)).build();
    early.runPrefetchThread();
    assertEquals("rank 0, step 1: checkPrefetchProgress out of order: expected checkHicacheEvents before it (once "
        + "per step, after the arrivals, before admission)", assertThrows(CallOrderException.class,
            () -> early.checkPrefetchProgress("r")).getMessage());
  }

  /** The enforced calls are StepOrder's: each is one of its phase's calls, and their positions follow its order. */
  @Test
  void theEnforcedCallsFollowTheOneWrittenStepOrder() {
    int last = 0;
    for (StepOrder phase : StepOrder.step(StepOrder.Finish.END_OF_STEP)) {
      for (SchedulerCall c : SchedulerCall.values()) {
        if (c.phase() == phase) {
          assertTrue(phase.calls().contains(c.method()), c + " is not among " + phase + "'s calls " + phase.calls());
          assertTrue(c.position() >= last, c + " comes before a call of an earlier phase");
          last = c.position();
        }
      }
    }
    for (StepOrder phase : StepOrder.values()) {
      for (String method : phase.calls()) {
        boolean enforced = Arrays.stream(SchedulerCall.values()).anyMatch(c -> c.method().equals(method));
        assertTrue(enforced || method.equals("matchPrefix") || method.equals("awaitLoaded"), method + " of " + phase + " is neither enforced nor free");
      }
    }
  }

  // ---------------------------------------------------------------- the two ranks' loop

  private static List<Outcome> run(String what, ThreadMode mode, Skip skip, boolean busy) throws Exception {
    return run(what, 2, 1, mode, skip, busy);
  }

  /** Rank 1 of a CP {@code cp} × TP {@code tp} domain makes {@code skip}; every rank's outcome, in rank order. */
  private static List<Outcome> run(String what, int cp, int tp, ThreadMode mode, Skip skip, boolean busy)
      throws Exception {
    HiCacheConfig cfg = HiCacheConfig.builder().pageSize(16).devicePages(16).hicacheRatio(2)
        .protocolVersion("merged").storagePrefetchPolicy("wait_complete").prefetchThresholdTokens(16)
        .parallelism(1, cp, tp, 1).build();
    InJvmCluster cluster = InJvmCluster.of(cfg, Duration.ofSeconds(20));
    HiCacheStorage storage = HiCacheStorage.memory();
    long start = System.nanoTime();
    List<CompletableFuture<Outcome>> ranks = new ArrayList<>();
    for (int r = 0; r < cp * tp; r++) {
      int rank = r;
      HiCacheRank cache = HiCacheRank.builder(cfg.forRank(r)).groups(cluster.groups(r)).storage(storage)
          .threadMode(mode).build();
      ranks.add(CompletableFuture.supplyAsync(() -> loop(rank, cache, rank == 1 ? skip : Skip.NONE, busy)));
    }
    List<Outcome> out = new ArrayList<>();
    for (CompletableFuture<Outcome> f : ranks) {
      out.add(f.get(60, TimeUnit.SECONDS));
    }
    long ms = (out.stream().mapToLong(Outcome::atNanos).max().orElseThrow() - start) / 1_000_000;
    StringBuilder report = new StringBuilder("skip detection, " + what + " (every rank failed or finished within "
        + ms + " ms):");
    out.forEach(o -> report.append("\n  ").append(o));
    System.out.println(report);
    assertTrue(ms < 15_000, "the report took " + ms + " ms: a timeout, not the sync point");
    return out;
  }

  /** Six steps; busy: a request arrives at every step and is admitted once its prefetch is done. */
  private static Outcome loop(int r, HiCacheRank cache, Skip skip, boolean busy) {
    List<String> waiting = new ArrayList<>();
    int step = 0;
    String call = "";
    try (cache) {
      for (step = 1; step <= 6; step++) {
        boolean skipping = step == SKIP_STEP;
        if (!(skipping && skip == Skip.PREFETCH_PASS)) {
          call = "runPrefetchThread";
          cache.runPrefetchThread();
        }
        if (busy) {
          call = "prefetchFromStorage";
          String rid = "req" + step;
          int[] p = Arrays.copyOf(PROMPT, PROMPT.length);
          p[0] = step;
          cache.prefetchFromStorage(rid, cache.matchPrefix(p));
          waiting.add(rid);
        }
        if (!(skipping && skip == Skip.EVENT_CHECK)) {
          call = "checkHicacheEvents";
          cache.checkHicacheEvents();
        }
        if (!waiting.isEmpty()) {
          call = "checkPrefetchProgress";
          if (cache.checkPrefetchProgress(waiting.get(0))) {
            waiting.remove(0);
          }
        }
        cache.awaitThreadsIdle(1_000);
      }
      return new Outcome(r, step, "", null, System.nanoTime());
    } catch (RuntimeException e) {
      return new Outcome(r, step, call, e, System.nanoTime()); // the exception, before the rank's close
    }
  }

  private static void assertLocal(Outcome o, int step, String call, String message) {
    assertTrue(o.error() instanceof CallOrderException, o.toString());
    assertEquals(step, o.step(), o.toString());
    assertEquals(call, o.call(), o.toString());
    assertTrue(o.error().getMessage().startsWith(message), o.toString());
  }

  private static void assertPeer(Outcome o, String call, String names) {
    assertTrue(o.error() instanceof CallOrderException, o.toString());
    assertEquals(SKIP_STEP, o.step(), "the peer reports it at the skip step's sync point: " + o);
    assertEquals(call, o.call(), o.toString());
    assertTrue(o.error().getMessage().contains(names), o.toString());
  }

  private static int[] prompt() {
    int[] p = new int[48];
    Arrays.fill(p, 9);
    return p;
  }
}
