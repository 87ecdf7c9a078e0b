package dev.hicachesync.example;

import dev.hicachesync.api.CachedRequest;
import dev.hicachesync.api.HiCacheConfig;
import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.api.ThreadMode;
import dev.hicachesync.api.HiCacheStorage;
import dev.hicachesync.api.InJvmCluster;
import dev.hicachesync.api.PrefixMatch;
import dev.hicachesync.api.StepOrder;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A minimal serving engine that embeds HiCache, written only against {@code dev.hicachesync.api} (an
 * engine author's starting point; {@code docs/tutorial/embed-a-rank.md} walks through it). Every rank is a thread of
 * this JVM and is its own scheduler thread: each step (in {@link StepOrder}'s order) it runs the prefetch
 * pass, takes the step's new requests, aborts the ones the client dropped, runs the event check, admits
 * waiting requests (prefix match, storage prefetch check, load-back, page allocation, prefill, caching the
 * prompt), runs one decode step for the running batch and caches the requests that finished.
 *
 * <p>What a real engine does differently, and why it does not matter here: requests reach every rank of a
 * domain through the scheduler's broadcast ({@code recv_requests}); here every rank derives the same request
 * stream from the same seed, which gives the same guarantee (the same requests in the same step on every
 * rank). The forward pass writes the KV of the computed tokens into {@link CachedRequest#freshPages()};
 * here it computes nothing.
 */
public final class ServingLoopExample {

  /** The run's outcome on each rank, in rank order. */
  public record Report(List<Long> treeDigests, List<Integer> finished, List<Integer> aborted,
      List<Integer> deviceHitTokens, List<Integer> hostHitTokens, List<Integer> storageHitTokens,
      List<List<String>> notQuiet) {}

  /** One client request: its prompt, when it arrives, how many tokens it decodes, and whether the client drops it. */
  record Request(String rid, int[] prompt, int arrivalStep, int decodeTokens, boolean dropped) {}

  private final HiCacheConfig base;
  private final int steps;
  private final long seed;
  private final ThreadMode threadMode;
  private final int forwardPassEvery;

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
          HiCacheRank cache = HiCacheRank.builder(base.forRank(rank)).groups(cluster.groups(rank))
              .storage(storage).threadMode(threadMode).build();
          schedulers[rank] = new Scheduler(cache, requests(seed, steps, base.pageSize()));
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
    List<List<String>> notQuiet = new ArrayList<>();
    for (Scheduler s : schedulers) {
      digests.add(s.cache.treeDigest());
      finished.add(s.finished);
      aborted.add(s.aborted);
      device.add(s.deviceHitTokens);
      host.add(s.hostHitTokens);
      storageHits.add(s.storageHitTokens);
      notQuiet.add(s.cache.quiescenceErrors());
    }
    for (Scheduler s : schedulers) {
      s.cache.close(); // stops the rank's prefetch, I/O, backup and copy-completion threads
    }
    return new Report(digests, finished, aborted, device, host, storageHits, notQuiet);
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
    private final ArrayDeque<Request> arrivals;
    private final ArrayDeque<Request> waiting = new ArrayDeque<>();
    private final List<Running> running = new ArrayList<>();
    int finished;
    int aborted;
    int deviceHitTokens;
    int hostHitTokens;
    /** Tokens the request's storage prefetch put in the tree (part of {@link #hostHitTokens}). */
    int storageHitTokens;

    Scheduler(HiCacheRank cache, List<Request> requests) {
      this.cache = cache;
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
        prefill(c.freshPages());
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
          prefill(pages); // the decode wrote the output's KV into these pages
        }
        cache.cacheFinishedReq(run.cached);
        it.remove();
        finished++;
      }
    }

    /** The engine's forward pass would write the KV of the computed tokens here. */
    private static void prefill(int[] devicePages) {}
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
