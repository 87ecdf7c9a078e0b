package dev.hicachesync.modelcheck.validate;

import dev.hicachesync.api.CachedRequest;
import dev.hicachesync.api.HiCacheConfig;
import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.api.InJvmCluster;
import dev.hicachesync.api.PrefixMatch;
import dev.hicachesync.api.RankGroups;
import dev.hicachesync.api.StepOrder;
import dev.hicachesync.api.StepOrder.Finish;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.trace.ndjson.NdjsonTraceRecorder;
import dev.hicachesync.trace.TraceFeature;
import dev.hicachesync.trace.TraceHeader;
import dev.hicachesync.trace.TraceRecorder;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An engine's serving loop shaped as the spec's scheduler step, written only against the public API (as the
 * worked example is): ranks built by {@link HiCacheRank#builder} with {@link HiCacheRankBuilder#trace}, each
 * on its own thread over an {@link InJvmCluster}. A step is SGLang's normal event loop ({@code
 * event_loop_normal}) for requests of one output token: RECV (the spec's: the MAX of the next request index,
 * or 0 while one waits), the arrival's {@code match_prefix} and {@code prefetch_from_storage}, {@code
 * check_hicache_events}, admission of the waiting request ({@code check_prefetch_progress}, match, load-back,
 * alloc, insert: write-through starts at insert, the builder's default), and the batch's result processed at
 * the end of the step ({@code cache_finished_req}). The trace header declares {@code finish_in_step} and
 * {@code write_at_insert}.
 *
 * <p>The loop runs {@link StepOrder}'s phases in their order. {@link Finish#AFTER_NEXT_RECV} is the order the
 * spec's default follows (a request finishes right after the next RECV): with the built-in environment a
 * write-through begun there completes at that step's event check, which the spec does not allow; the tests
 * use it as a mutant of the loop.
 */
final class EngineLoop {
  /** Tokens per page. */
  static final int PAGE = 16;

  private EngineLoop() {}

  /**
   * Runs the loop on every rank of a (1, cp, tp, 1) grid over the key stream {@code keys} (one page per key;
   * key k's prompt is one page of the token k) and returns the trace: its header, then every rank's lines.
   */
  static List<String> record(String version, int cp, int tp, List<Integer> keys, int devicePages, int hostPages,
      Finish finish, List<TraceFeature> features) throws Exception {
    HiCacheConfig cfg = HiCacheConfig.builder().pageSize(PAGE).devicePages(devicePages)
        .hicacheRatio((double) hostPages / devicePages).protocolVersion(version).writePolicy("write_through")
        .loadBackThresholdTokens(PAGE).prefetchThresholdTokens(PAGE).parallelism(1, cp, tp, 1).build();
    InJvmCluster cluster = InJvmCluster.of(cfg, Duration.ofSeconds(30));
    StringWriter out = new StringWriter();
    try (NdjsonTraceRecorder rec = new NdjsonTraceRecorder(out)) {
      rec.header(new TraceHeader(1, cp, tp, 1, version, "timeout", "write_through", false, keys, 1, devicePages,
          cfg.hostPages(), 1, features));
      List<CompletableFuture<Void>> ranks = new ArrayList<>();
      for (int r = 0; r < cluster.worldSize(); r++) {
        int rank = r;
        ranks.add(CompletableFuture.runAsync(() -> run(cfg.forRank(rank), cluster.groups(rank), rec, keys, finish)));
      }
      for (CompletableFuture<Void> f : ranks) {
        f.get(120, TimeUnit.SECONDS);
      }
    }
    return new ArrayList<>(out.toString().lines().toList());
  }

  /** One rank's scheduler thread. */
  private static void run(HiCacheConfig cfg, RankGroups g, TraceRecorder rec, List<Integer> keys, Finish finish) {
    long[] step = {0};
    try (HiCacheRank rank = HiCacheRank.builder(cfg).groups(g).trace(rec, () -> step[0]).build()) {
      ProcessGroup recv = rank.traceRecv(g.cpTp()); // the sync domain (DP = PP = 1): the CP x TP grid
      ProcessGroup harness = g.cpTp(); // the same group untraced: the loop's own stop agreement
      ArrayDeque<Integer> waiting = new ArrayDeque<>();
      CachedRequest running = null;
      int received = 0;
      // A bound, the same on every rank, so that a broken rank that never drains ends with a trace to check.
      long maxSteps = 4L * keys.size() + 8;
      for (; step[0] < maxSteps; step[0]++) {
        // Stop once every rank has nothing left (the spec's LocalDone): a harness MIN, not part of the trace.
        boolean done = received == keys.size() && waiting.isEmpty() && running == null
            && rank.quiescenceErrors().isEmpty();
        if (harness.allReduce("DONE", ReduceOp.MIN, new long[] {done ? 1 : 0})[0] == 1) {
          return;
        }
        long next = 0;
        for (StepOrder phase : StepOrder.step(finish)) {
          switch (phase) {
            case PREFETCH_THREAD -> rank.runPrefetchThread(); // storage off: nothing to do
            case RECV -> {
              int head = waiting.isEmpty() ? 0 : waiting.peek();
              rank.beforeRecv(head, running == null ? 0 : index(running.rid()));
              next = recv.allReduce("RECV", ReduceOp.MAX,
                  new long[] {head == 0 && received < keys.size() ? received + 1 : 0})[0];
            }
            case ARRIVALS -> {
              if (next > 0) {
                received = (int) next;
                rank.prefetchFromStorage(rid(received), rank.matchPrefix(prompt(keys.get(received - 1))));
                waiting.add(received);
              }
            }
            case ABORTS -> { } // no request is aborted
            case EVENTS -> rank.checkHicacheEvents();
            case ADMIT -> {
              if (!waiting.isEmpty() && rank.checkPrefetchProgress(rid(waiting.peek()))) {
                int i = waiting.peek();
                PrefixMatch m = rank.matchPrefix(prompt(keys.get(i - 1)));
                CachedRequest req = rank.allocForExtend(rid(i), m, rank.initLoadBack(m));
                if (req != null) { // else no device memory: it stays waiting (the same on every rank)
                  waiting.poll();
                  rank.cacheUnfinishedReq(req);
                  running = req;
                }
              }
            }
            case FINISH -> {
              if (running != null) {
                rank.cacheFinishedReq(running);
                running = null;
              }
            }
          }
        }
      }
    }
  }

  static int[] prompt(int key) {
    int[] p = new int[PAGE];
    Arrays.fill(p, key);
    return p;
  }

  private static String rid(int request) {
    return "req" + request;
  }

  private static int index(String rid) {
    return Integer.parseInt(rid.substring(3));
  }
}
