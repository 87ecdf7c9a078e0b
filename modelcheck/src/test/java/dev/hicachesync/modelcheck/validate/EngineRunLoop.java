package dev.hicachesync.modelcheck.validate;

import dev.hicachesync.api.CachedRequest;
import dev.hicachesync.api.HiCacheConfig;
import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.api.HiCacheStorage;
import dev.hicachesync.api.InJvmCluster;
import dev.hicachesync.api.PrefixMatch;
import dev.hicachesync.api.RankGroups;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.trace.ndjson.NdjsonTraceRecorder;
import dev.hicachesync.trace.TraceFeature;
import dev.hicachesync.trace.TraceHeader;
import dev.hicachesync.trace.TraceRecorder;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An engine's own serving loop, written only against the public API with L3 storage on: ranks built by {@link
 * HiCacheRank#builder} with {@link HiCacheRank.Builder#storage} and {@link HiCacheRank.Builder#trace}, each on
 * its own thread over an {@link InJvmCluster}; nothing of the simulator. Not shaped as any spec: a step follows {@link
 * dev.hicachesync.api.StepOrder}: the prefetch thread's pass ({@link HiCacheRank#runPrefetchThread}: stepped, it
 * returns once the pass and its S7 are done, which is what the engine must wait on before the event check
 * counts its outcome), RECV (every rank posts the arrivals of this step, the same seeded stream everywhere, and
 * the domain takes the MAX), the arrivals' {@code match_prefix} and {@code prefetch_from_storage}, {@code
 * check_hicache_events}, admission of
 * every waiting request it can ({@code check_prefetch_progress}, match, load-back, alloc, insert), several
 * requests running for a few decode steps each, {@code alloc_for_decode} and {@code cache_finished_req}.
 * Prompts share prefixes (a system page, then per-conversation pages), so matches split nodes. The header
 * declares what {@code spec/TraceHiCacheRun.tla} follows: storage, the workload's RECV, several running,
 * decode, shared prefixes, write-through at insert.
 */
final class EngineRunLoop {
  /** Tokens per page. */
  static final int PAGE = 16;

  private EngineRunLoop() {}

  /** One request of the stream: its prompt, output and decode steps; arrives at {@code step}. */
  record Req(String rid, long step, int[] prompt, int[] output, int decodeSteps) {}

  /** The seeded stream: {@code n} requests over {@code steps} steps, prompts sharing a first page. */
  static List<Req> stream(long seed, int n, int steps) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Req> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int conv = 1 + rnd.nextInt(4);
      int pages = 2 + rnd.nextInt(2);
      int[] prompt = new int[pages * PAGE];
      for (int t = 0; t < prompt.length; t++) {
        prompt[t] = t < PAGE ? 7 : conv * 1000 + (t < 2 * PAGE ? 0 : i); // system page, conversation page, own
      }
      int[] output = new int[PAGE / 2 + rnd.nextInt(PAGE)];
      java.util.Arrays.fill(output, 5000 + i);
      out.add(new Req("req" + i, (long) i * steps / n, prompt, output, 1 + rnd.nextInt(3)));
    }
    return out;
  }

  /** Runs the loop on every rank of a (1, cp, tp, 1) grid and returns the trace (header first). */
  static List<String> record(String version, int cp, int tp, String policy, long seed, int n, int steps,
      int devicePages, int hostPages) throws Exception {
    HiCacheConfig cfg = HiCacheConfig.builder().pageSize(PAGE).devicePages(devicePages)
        .hicacheRatio((double) hostPages / devicePages).protocolVersion(version).writePolicy("write_through")
        .storagePrefetchPolicy(policy).loadBackThresholdTokens(PAGE).prefetchThresholdTokens(PAGE)
        .parallelism(1, cp, tp, 1).build();
    InJvmCluster cluster = InJvmCluster.of(cfg, Duration.ofSeconds(30));
    List<Req> stream = stream(seed, n, steps);
    StringWriter out = new StringWriter();
    try (NdjsonTraceRecorder rec = new NdjsonTraceRecorder(out)) {
      rec.header(new TraceHeader(1, cp, tp, 1, version, policy, "write_through", true, List.of(), 1, devicePages,
          cfg.hostPages(), 1, List.of(TraceFeature.STORAGE, TraceFeature.WORKLOAD_RECV, TraceFeature.DECODE,
              TraceFeature.SHARED_PREFIXES, TraceFeature.WRITE_AT_INSERT, TraceFeature.SEVERAL_RUNNING)));
      List<CompletableFuture<Void>> ranks = new ArrayList<>();
      for (int r = 0; r < cluster.worldSize(); r++) {
        int rank = r;
        ranks.add(CompletableFuture.runAsync(() -> run(cfg.forRank(rank), cluster.groups(rank), rec, stream, steps)));
      }
      for (CompletableFuture<Void> f : ranks) {
        f.get(120, TimeUnit.SECONDS);
      }
    }
    return new ArrayList<>(out.toString().lines().toList());
  }

  private record Running(Req req, CachedRequest cached, long done) {}

  /** One rank's scheduler thread; every rank has its own memory store (its own storage shard). */
  private static void run(HiCacheConfig cfg, RankGroups g, TraceRecorder rec, List<Req> stream, int steps) {
    long[] step = {0};
    try (HiCacheRank rank = HiCacheRank.builder(cfg).groups(g).storage(HiCacheStorage.memory())
        .trace(rec, () -> step[0]).build()) {
      ProcessGroup recv = rank.traceRecv(g.cpTp()); // the sync domain (DP = PP = 1): the CP x TP grid
      List<Req> waiting = new ArrayList<>();
      List<Running> running = new ArrayList<>();
      int next = 0;
      for (; step[0] < steps; step[0]++) {
        long s = step[0];
        int arriving = 0;
        while (next + arriving < stream.size() && stream.get(next + arriving).step() <= s) {
          arriving++;
        }
        // StepOrder's order (END_OF_STEP), which the rank enforces
        rank.runPrefetchThread();
        rank.beforeRecv(waiting.size(), running.size());
        long agreed = recv.allReduce("RECV", ReduceOp.MAX, new long[] {s, arriving, 0})[1];
        for (int i = 0; i < agreed; i++) {
          Req r = stream.get(next++);
          rank.prefetchFromStorage(r.rid(), rank.matchPrefix(r.prompt()));
          waiting.add(r);
        }
        rank.checkHicacheEvents();
        for (Iterator<Req> it = waiting.iterator(); it.hasNext() && running.size() < 4; ) {
          Req r = it.next();
          if (!rank.checkPrefetchProgress(r.rid())) {
            continue;
          }
          PrefixMatch m = rank.matchPrefix(r.prompt());
          CachedRequest c = rank.allocForExtend(r.rid(), m, rank.initLoadBack(m));
          if (c == null) {
            break; // no device memory: the same on every rank
          }
          it.remove();
          rank.cacheUnfinishedReq(c);
          running.add(new Running(r, c, s + r.decodeSteps()));
        }
        for (Iterator<Running> it = running.iterator(); it.hasNext(); ) {
          Running run = it.next();
          if (run.done() > s) {
            continue;
          }
          it.remove();
          int[] all = java.util.Arrays.copyOf(run.req().prompt(), run.req().prompt().length + run.req().output().length);
          System.arraycopy(run.req().output(), 0, all, run.req().prompt().length, run.req().output().length);
          rank.allocForDecode(run.cached(), all);
          rank.cacheFinishedReq(run.cached());
        }
      }
    }
  }
}
