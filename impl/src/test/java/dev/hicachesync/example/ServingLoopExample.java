package dev.hicachesync.example;

import dev.hicachesync.api.CachedRequest;
import dev.hicachesync.api.HiCacheConfig;
import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.api.ThreadMode;
import dev.hicachesync.api.HiCacheStorage;
import dev.hicachesync.api.InJvmCluster;
import dev.hicachesync.api.PrefixMatch;
import dev.hicachesync.api.StepOrder;
import dev.hicachesync.tier.HostMemoryDeviceTier;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A minimal serving engine that embeds HiCache, written only against {@code dev.hicachesync.api} and the device
 * pool an engine passes ({@code tier.DeviceTier}; an engine author's starting point; {@code
 * docs/tutorial/embed-a-rank.md} walks through it). Every rank is a thread of this JVM and is its own scheduler
 * thread: each step, in {@link StepOrder}'s order, it runs the prefetch pass, takes the step's
 * new requests, aborts the ones the client dropped, runs the event check, admits waiting requests (storage
 * prefetch check, prefix match, load-back, page allocation, waiting for the load-back, prefill, caching the
 * prompt), runs one decode step for the running batch and caches the requests that finished.
 *
 * <p>What a real engine does differently, and why it does not matter here: requests reach every rank of a
 * domain through the scheduler's broadcast ({@code recv_requests}); here every rank derives the same request
 * stream from the same seed, which gives the same guarantee (the same requests in the same step on every
 * rank). The device pool is a {@link HostMemoryDeviceTier} (a GPU engine passes its own), so the KV bytes
 * really move: the forward pass writes each computed page's KV (here a function of the tokens up to the end
 * of the page, as attention's KV is) into {@link CachedRequest#freshPages()}, and reads the request's cached
 * prefix back once {@link HiCacheRank#awaitLoaded} says its load-backs have landed; the report counts the
 * prefix pages it read and how many held other bytes than their tokens' KV.
 */
public final class ServingLoopExample {

  /** The run's outcome on each rank, in rank order. */
  public record Report(List<Long> treeDigests, List<Integer> finished, List<Integer> aborted,
      List<Integer> deviceHitTokens, List<Integer> hostHitTokens, List<Integer> storageHitTokens,
      List<Integer> prefixPagesRead, List<Integer> wrongPrefixPages, List<List<String>> notQuiet) {}

  /** One client request: its prompt, when it arrives, how many tokens it decodes, and whether the client drops it. */
  record Request(String rid, int[] prompt, int arrivalStep, int decodeTokens, boolean dropped) {}

  private final HiCacheConfig base;
  private final int steps;
  private final long seed;
  private final ThreadMode threadMode;
  private final int forwardPassEvery;
  /** The device pool's geometry: small pages, as only their content's identity matters here. */
  static final int LAYERS = 2;
  static final int LAYER_BYTES = 16;

  /** An engine of {@code base}'s grid that serves {@code steps} steps of a request stream drawn from {@code seed}. */
  public ServingLoopExample(HiCacheConfig base, int steps, long seed) {
    this(base, steps, seed, ThreadMode.STEPPED);
  }

  /** The same engine with the ranks' own threads in {@code threadMode} ({@code FREE_RUNNING}: as in production). */
  public ServingLoopExample(HiCacheConfig base, int steps, long seed, ThreadMode threadMode) {
    this(base, steps, seed, threadMode, 0);
  }

  /**
   * The same engine whose every {@code forwardPassEvery}-th step (0: none) lets the rank's threads finish
   * their work before it begins ({@link HiCacheRank#awaitThreadsIdle}), standing in for the time a real
   * forward pass gives them: this loop's computes nothing, so a step takes a fraction of a millisecond
   * where an engine's takes tens, and free-running I/O threads fall steps behind (what that costs, measured:
   * {@code FreeRunningServingLoopTest}). Between those steps the threads still race the scheduler and each other.
   */
  public ServingLoopExample(HiCacheConfig base, int steps, long seed, ThreadMode threadMode, int forwardPassEvery) {
    if (forwardPassEvery < 0) {
      throw new IllegalArgumentException("forwardPassEvery must be >= 0, was " + forwardPassEvery);
    }
    this.base = base;
    this.steps = steps;
    this.seed = seed;
    this.threadMode = threadMode;
    this.forwardPassEvery = forwardPassEvery;
  }

  /** Runs every rank on its own thread until the stream is served and every rank is quiet; returns the report. */
  public Report run() throws InterruptedException {
    InJvmCluster cluster = InJvmCluster.of(base, Duration.ofSeconds(10));
    HiCacheStorage storage = HiCacheStorage.memory(); // one L3 shared by every rank, as a real one is
    int world = cluster.worldSize();
    Scheduler[] schedulers = new Scheduler[world];
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int r = 0; r < world; r++) {
      int rank = r;
      Thread t = new Thread(() -> {
        try {
          HostMemoryDeviceTier kv = new HostMemoryDeviceTier(base.devicePages(), LAYERS, LAYER_BYTES);
          HiCacheRank cache = HiCacheRank.builder(base.forRank(rank)).groups(cluster.groups(rank))
              .storage(storage).deviceTier(kv).threadMode(threadMode).build();
          schedulers[rank] = new Scheduler(cache, kv, requests(seed, steps, base.pageSize()), base.pageSize());
          schedulers[rank].serve(steps, forwardPassEvery);
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "scheduler-" + rank);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw new IllegalStateException("a rank failed: " + failure.get(), failure.get());
    }
    List<Long> digests = new ArrayList<>();
    List<Integer> finished = new ArrayList<>();
    List<Integer> aborted = new ArrayList<>();
    List<Integer> device = new ArrayList<>();
    List<Integer> host = new ArrayList<>();
    List<Integer> storageHits = new ArrayList<>();
    List<Integer> prefixRead = new ArrayList<>();
    List<Integer> prefixWrong = new ArrayList<>();
    List<List<String>> notQuiet = new ArrayList<>();
    for (Scheduler s : schedulers) {
      digests.add(s.cache.treeDigest());
      finished.add(s.finished);
      aborted.add(s.aborted);
      device.add(s.deviceHitTokens);
      host.add(s.hostHitTokens);
      storageHits.add(s.storageHitTokens);
      prefixRead.add(s.prefixPagesRead);
      prefixWrong.add(s.wrongPrefixPages);
      notQuiet.add(s.cache.quiescenceErrors());
    }
    for (Scheduler s : schedulers) {
      s.cache.close(); // stops the rank's prefetch, I/O, backup and copy-completion threads
      s.kv.close(); // the engine owns its device pool
    }
    return new Report(digests, finished, aborted, device, host, storageHits, prefixRead, prefixWrong, notQuiet);
  }

  /**
   * The request stream: multi-turn sessions over a few shared system prompts, so that later turns hit the
   * cache; the same on every rank because it is drawn from the seed alone.
   */
  static List<Request> requests(long seed, int steps, int pageSize) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int[][] system = new int[3][];
    for (int i = 0; i < system.length; i++) {
      system[i] = tokens(rnd, (2 + rnd.nextInt(3)) * pageSize);
    }
    List<int[]> history = new ArrayList<>();
    List<Request> out = new ArrayList<>();
    for (int step = 0; step < steps; step++) {
      if (rnd.nextInt(3) != 0) {
        continue; // a request every three steps or so
      }
      int[] prompt;
      int h = history.isEmpty() ? -1 : rnd.nextInt(history.size());
      if (h >= 0 && rnd.nextBoolean() && history.get(h).length < 12 * pageSize) { // a session's next turn
        prompt = concat(history.get(h), tokens(rnd, (1 + rnd.nextInt(2)) * pageSize));
        history.set(h, prompt);
      } else {
        prompt = concat(system[rnd.nextInt(system.length)], tokens(rnd, (1 + rnd.nextInt(3)) * pageSize));
        history.add(prompt);
      }
      out.add(new Request("req-" + out.size(), prompt, step, 1 + rnd.nextInt(pageSize),
          rnd.nextInt(20) == 0));
    }
    return out;
  }

  /** One rank's scheduler: its waiting queue and running batch, stepped on the rank's own thread. */
  static final class Scheduler {
    private static final int MAX_RUNNING = 8;
    final HiCacheRank cache;
    final HostMemoryDeviceTier kv;
    private final int pageSize;
    private final ArrayDeque<Request> arrivals;
    private final ArrayDeque<Request> waiting = new ArrayDeque<>();
    private final List<Running> running = new ArrayList<>();
    int finished;
    int aborted;
    int deviceHitTokens;
    int hostHitTokens;
    /** Tokens the request's storage prefetch put in the tree (part of {@link #hostHitTokens}). */
    int storageHitTokens;
    /** Pages of cached prefixes the forward pass read at admission, and those whose bytes were not their KV. */
    int prefixPagesRead;
    int wrongPrefixPages;

    Scheduler(HiCacheRank cache, HostMemoryDeviceTier kv, List<Request> requests, int pageSize) {
      this.cache = cache;
      this.kv = kv;
      this.pageSize = pageSize;
      this.arrivals = new ArrayDeque<>(requests);
    }

    /** Serves {@code steps} steps, then steps on without new requests until the rank is quiet. */
    void serve(int steps) {
      serve(steps, 0);
    }

    /**
     * Serves {@code steps} steps (every {@code forwardPassEvery}-th, if not 0, after the rank's threads have
     * caught up), then steps on without new requests until the rank is quiet.
     */
    void serve(int steps, int forwardPassEvery) {
      int step = 0;
      for (; step < steps; step++) {
        if (forwardPassEvery > 0 && step % forwardPassEvery == forwardPassEvery - 1) {
          cache.awaitThreadsIdle(1_000); // local: changes nothing the ranks must agree on
        }
        step(step);
      }
      // Drain: a bounded number of idle steps, the same on every rank (they must keep making the same calls).
      for (int idle = 0; idle < 200; idle++, step++) {
        cache.awaitThreadsIdle(1_000); // free-running: let this rank's I/O finish, as an idle scheduler would
        step(step);
      }
    }

    // guide:begin (docs/tutorial/embed-a-rank.md shows this region verbatim; GuideShowsTheExampleTest checks it)
    /**
     * One scheduler step: the phases of {@link StepOrder}, in its order, which every rank of the domain
     * follows alike (the request broadcast is this engine's seeded stream, the same on every rank).
     */
    void step(int step) {
      for (StepOrder phase : StepOrder.step(StepOrder.Finish.END_OF_STEP)) {
        switch (phase) {
          case PREFETCH_THREAD -> cache.runPrefetchThread(); // S7 for the prefetches issued last step
          case RECV -> { } // every rank draws the same stream from the seed: nothing to broadcast
          case ARRIVALS -> arrive(step);
          case ABORTS -> abort(step);
          case EVENTS -> cache.checkHicacheEvents(); // S1–S3 (S123 in merged): finished copies and I/O
          case ADMIT -> admit();
          case FINISH -> decode();
        }
      }
    }

    private void arrive(int step) {
      while (!arrivals.isEmpty() && arrivals.peek().arrivalStep() == step) {
        Request r = arrivals.poll();
        cache.prefetchFromStorage(r.rid(), cache.matchPrefix(r.prompt()));
        waiting.add(r);
      }
    }

    private void abort(int step) {
      for (Iterator<Request> it = waiting.iterator(); it.hasNext(); ) {
        Request r = it.next();
        if (r.dropped() && step >= r.arrivalStep() + 1) { // the client went away while it waited
          cache.releaseAbortedRequest(r.rid()); // S6
          it.remove();
          aborted++;
        }
      }
    }

    private void admit() {
      for (Iterator<Request> it = waiting.iterator(); it.hasNext() && running.size() < MAX_RUNNING; ) {
        Request r = it.next();
        if (!cache.checkPrefetchProgress(r.rid())) { // S4, S5: its storage prefetch is still running
          continue;
        }
        PrefixMatch m = cache.matchPrefix(r.prompt());
        int loaded = cache.initLoadBack(m);
        CachedRequest c = cache.allocForExtend(r.rid(), m, loaded);
        if (c == null) {
          break; // no device memory: equal pools, so every rank stops here too
        }
        cache.awaitLoaded(c); // the prefix's load-backs have landed: its pages hold their KV
        int prefixPages = (m.deviceTokens() + loaded) / pageSize;
        readPrefix(r.prompt(), c.devicePages(), prefixPages); // the forward pass reads the cached prefix
        forward(r.prompt(), prefixPages, c.freshPages()); // and writes the KV of the tokens it computes
        cache.cacheUnfinishedReq(c); // insert the prompt: write-through starts here
        deviceHitTokens += m.deviceTokens();
        hostHitTokens += loaded;
        storageHitTokens += c.prefetchedTokens();
        running.add(new Running(r, c));
        it.remove();
      }
    }

    private void decode() {
      for (Iterator<Running> it = running.iterator(); it.hasNext(); ) {
        Running run = it.next();
        run.decoded++;
        if (run.decoded < run.request.decodeTokens()) {
          continue;
        }
        int[] all = concat(run.request.prompt(), output(run.request));
        int[] pages = cache.allocForDecode(run.cached, all);
        if (pages != null) {
          forward(all, all.length / pageSize - pages.length, pages); // the output's KV
        }
        cache.cacheFinishedReq(run.cached);
        it.remove();
        finished++;
      }
    }
    // guide:end

    /** The forward pass writes the KV of {@code tokens}' pages from page {@code first} on into {@code pages}. */
    private void forward(int[] tokens, int first, int[] pages) {
      for (int j = 0; j < pages.length; j++) {
        kv.write(pages[j], kvOf(tokens, first + j, pageSize));
      }
    }

    /** The forward pass reads the first {@code prefixPages} of {@code pages}: each must hold its tokens' KV. */
    private void readPrefix(int[] tokens, int[] pages, int prefixPages) {
      ByteBuffer got = ByteBuffer.allocate(kv.pageBytes());
      for (int j = 0; j < prefixPages; j++) {
        got.clear();
        kv.read(pages[j], got);
        prefixPagesRead++;
        if (!got.flip().equals(kvOf(tokens, j, pageSize))) {
          wrongPrefixPages++;
        }
      }
    }
  }

  /** Page {@code page}'s KV: a function of every token up to the end of that page, as attention's is. */
  static ByteBuffer kvOf(int[] tokens, int page, int pageSize) {
    long h = 1125899906842597L;
    for (int i = 0; i < (page + 1) * pageSize; i++) {
      h = 31 * h + tokens[i];
    }
    ByteBuffer b = ByteBuffer.allocate(LAYERS * LAYER_BYTES);
    for (int i = 0; i < b.capacity(); i += Long.BYTES) {
      b.putLong(i, h ^ (i * 0x9E3779B97F4A7C15L));
    }
    return b;
  }

  /** A request in the running batch and the tokens it has decoded. */
  private static final class Running {
    final Request request;
    final CachedRequest cached;
    int decoded;

    Running(Request request, CachedRequest cached) {
      this.request = request;
      this.cached = cached;
    }
  }

  /** The output a request decodes: a function of its id, so equal on every rank. */
  static int[] output(Request r) {
    SplittableRandom rnd = new SplittableRandom(r.rid().hashCode());
    return tokens(rnd, r.decodeTokens());
  }

  private static int[] tokens(SplittableRandom rnd, int n) {
    int[] t = new int[n];
    for (int i = 0; i < n; i++) {
      t[i] = 1 + rnd.nextInt(30_000);
    }
    return t;
  }

  private static int[] concat(int[] a, int[] b) {
    int[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }
}
