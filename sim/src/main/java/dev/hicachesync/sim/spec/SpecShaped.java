package dev.hicachesync.sim.spec;

import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.StorageMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A simulation shaped like {@code spec/HiCacheSync.tla}, so that its trace ({@code simulate --trace}) can be
 * checked by TLC event by event ({@code validate-trace}). The cache protocol is the real one (the same
 * {@code CacheController}, sync layer and collectives) and so is the scheduler loop ({@code RankEngine},
 * the simulator's only one, driving the public {@code HiCacheRank}); what changes is the loop's
 * configuration ({@code LoopShape.spec()}) and its request stream ({@code SpecIntake}), to the spec's
 * abstraction (docs/explanation/trace-validation.md, "The spec-shaped run"):
 *
 * <ul>
 *   <li>a fixed request stream of keys; key k is a prompt of {@code pagesPerKey} pages whose tokens are all
 *       k, so keys share no prefix (one radix node per key, never split);
 *   <li>RECV is the spec's: every rank posts {@code [next request index, or 0 while the waiting queue is full]}, MAX over the
 *       sync domain; the request runs for one step and finishes right after the next RECV, when its node is
 *       unlocked and written through ({@code cache_finished_req});
 *   <li>at most {@link #waitingCap} requests wait (one by default) and one runs; no decode or partial hits;
 *       aborts of waiting requests only when asked for ({@link #withAborts});
 *   <li>device and host eviction in the tree's LRU order on the replicated clock (the spec's too);
 *   <li>a GPU copy completes one tick after it starts at the earliest, so never inside the step that
 *       started it (the spec lets environment events happen only at step boundaries);
 *   <li>with storage on: one page per key, prefetch threshold one page, S7 at the step boundary with its
 *       outcome arriving at once, and S5's released slots handed back before the step goes on
 *       ({@code LoopShape#settleStorage});
 *   <li>write-through starting when the request finishes ({@code LoopShape#writeThroughAtFinish});
 *   <li>one pipeline stage, write-through (what the spec and this mapping cover).
 * </ul>
 *
 * @param requests the key of each request, keys from 1
 * @param pagesPerKey pages of one key
 * @param finishInStep whether the run is in SGLang's normal event loop ({@link #inStep})
 * @param aborted the requests (indexes from 1) aborted if they still wait one step after arriving ({@link
 *     #withAborts})
 * @param attachFailsOn with a runtime-attach fault ({@code unified}): the ranks whose backend fails to
 *     initialise at the attach, which a spec-shaped run handles at its first RECV as {@code HiCacheUnified.tla}
 *     does ({@code check --replay} takes them from a counterexample); null: the fault's own choice (odd ranks)
 * @param waitingCap requests a rank's waiting queue holds at most (the spec's {@code WaitingCap}): RECV takes no
 *     new one while it is full ({@link #withWaitingCap})
 * @param wholeKeyHits whether the run's timing promises that no prefetch of a key of several pages inserts part
 *     of it (every S7 hit is 0 or the whole key and no read fails): {@code check --replay}'s schedules, which it
 *     refuses otherwise. Storage may then have several pages per key, read page by page as the spec's {@code
 *     StorageReadsPage} reads them ({@link #withWholeKeyHits}), and PP stages may have storage: such a replay
 *     compares the host release and revoke queues, and the slots past a hit, as {@code HiCachePipeline.tla}'s
 *     one release queue
 * @param attachStateChecked whether the run checks {@code AttachStateConsistent} at the end of every step (by
 *     default); {@code check --replay} leaves it out where the model's cfg does ({@link #withoutAttachStateCheck}):
 *     a liveness lasso that runs through a half-attached controller
 */
public record SpecShaped(List<Integer> requests, int pagesPerKey, boolean finishInStep, Set<Integer> aborted,
    List<Integer> attachFailsOn, int waitingCap, boolean wholeKeyHits, boolean attachStateChecked) {

  /** The stream with {@code AttachStateConsistent} checked. */
  public SpecShaped(List<Integer> requests, int pagesPerKey, boolean finishInStep, Set<Integer> aborted,
      List<Integer> attachFailsOn, int waitingCap, boolean wholeKeyHits) {
    this(requests, pagesPerKey, finishInStep, aborted, attachFailsOn, waitingCap, wholeKeyHits, true);
  }

  /** This stream without the check of {@code AttachStateConsistent} at each step's end ({@link #attachStateChecked}). */
  public SpecShaped withoutAttachStateCheck() {
    return new SpecShaped(requests, pagesPerKey, finishInStep, aborted, attachFailsOn, waitingCap, wholeKeyHits, false);
  }

  /** The stream with one request waiting at a time (the spec's default {@code WaitingCap = 1}). */
  public SpecShaped(List<Integer> requests, int pagesPerKey, boolean finishInStep, Set<Integer> aborted,
      List<Integer> attachFailsOn) {
    this(requests, pagesPerKey, finishInStep, aborted, attachFailsOn, 1, false);
  }

  /** This stream with up to {@code cap} requests waiting at once on a rank (the spec's {@code WaitingCap}). */
  public SpecShaped withWaitingCap(int cap) {
    return new SpecShaped(requests, pagesPerKey, finishInStep, aborted, attachFailsOn, cap, wholeKeyHits, attachStateChecked);
  }

  /** This stream under a timing that inserts no part of a key ({@link #wholeKeyHits}). */
  public SpecShaped withWholeKeyHits() {
    return new SpecShaped(requests, pagesPerKey, finishInStep, aborted, attachFailsOn, waitingCap, true, attachStateChecked);
  }

  /** The spec's default order: a request finishes right after the next RECV, written through then; no aborts. */
  public SpecShaped(List<Integer> requests, int pagesPerKey) {
    this(requests, pagesPerKey, false, Set.of(), null);
  }

  /** The stream with a loop order and aborts, no attach schedule. */
  public SpecShaped(List<Integer> requests, int pagesPerKey, boolean finishInStep, Set<Integer> aborted) {
    this(requests, pagesPerKey, finishInStep, aborted, null);
  }

  /**
   * The same run where about a third of the requests, drawn by {@code seed}, are aborted if they still wait one
   * step after they arrived (trace feature {@code aborts}, the spec's knob {@code abort}): the client's AbortReq
   * is received with the next RECV, the request leaves the waiting queue, and its prefetch, if it holds host
   * slots, is released after the S6 barrier ({@code release_aborted_request}). With storage off a request
   * rarely waits, so aborts need storage on to happen.
   */
  public SpecShaped withAborts(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed ^ 0xAB0127L);
    Set<Integer> a = new java.util.TreeSet<>();
    for (int i = 1; i <= requests.size(); i++) {
      if (rnd.nextInt(3) == 0) {
        a.add(i);
      }
    }
    return new SpecShaped(requests, pagesPerKey, finishInStep, a, attachFailsOn, waitingCap, wholeKeyHits, attachStateChecked);
  }

  /**
   * The same run in SGLang's normal event loop (trace feature {@code finish_in_step}, the spec's knob of that
   * name): each request finishes at the end of the step that admitted it, and write-through starts at insert
   * (SGLang's point: trace feature {@code write_at_insert}); {@code LoopShape.specInStep()}.
   */
  public SpecShaped inStep() {
    return new SpecShaped(requests, pagesPerKey, true, aborted, attachFailsOn, waitingCap, wholeKeyHits, attachStateChecked);
  }

  /** This stream with the runtime attach failing on {@code ranks} (see {@link #attachFailsOn}). */
  public SpecShaped attachFailingOn(List<Integer> ranks) {
    return new SpecShaped(requests, pagesPerKey, finishInStep, aborted, List.copyOf(ranks), waitingCap, wholeKeyHits, attachStateChecked);
  }

  /** Whether rank {@code rank}'s backend initialises at a runtime attach of this run. */
  public boolean attachSucceedsOn(int rank) {
    return attachFailsOn == null ? rank % 2 == 0 : !attachFailsOn.contains(rank);
  }

  /** Checks the fields; one-line {@link IllegalArgumentException} otherwise. */
  public SpecShaped {
    requests = List.copyOf(requests);
    aborted = Set.copyOf(aborted);
    for (int i : aborted) {
      if (i < 1 || i > requests.size()) {
        throw new IllegalArgumentException("an aborted request must be one of 1.." + requests.size() + ", got " + i);
      }
    }
    if (requests.isEmpty()) {
      throw new IllegalArgumentException("a spec-shaped run needs at least one request");
    }
    for (int k : requests) {
      if (k < 1) {
        throw new IllegalArgumentException("request keys must be >= 1, got " + k);
      }
    }
    if (pagesPerKey < 1) {
      throw new IllegalArgumentException("pages per key must be >= 1, got " + pagesPerKey);
    }
    if (waitingCap < 1) {
      throw new IllegalArgumentException("the waiting queue must hold at least one request, got " + waitingCap);
    }
  }

  /** {@code n} requests with keys drawn from 1..{@code keys} by {@code seed} (the run's one seed). */
  public static SpecShaped seeded(long seed, int n, int keys, int pagesPerKey) {
    if (n < 1 || keys < 1) {
      throw new IllegalArgumentException("requests and keys must be >= 1, got " + n + " and " + keys);
    }
    SplittableRandom rnd = new SplittableRandom(seed ^ 0x7E57ACE5L);
    List<Integer> ks = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ks.add(1 + rnd.nextInt(keys));
    }
    return new SpecShaped(ks, pagesPerKey);
  }

  /** The prompt of key {@code key}: {@code pagesPerKey} pages of {@code pageSize} tokens, all equal to the key. */
  public int[] prompt(int key, int pageSize) {
    int[] t = new int[pagesPerKey * pageSize];
    java.util.Arrays.fill(t, key);
    return t;
  }

  /** Checks that {@code cfg} is a configuration this mapping covers; one-line exception otherwise. */
  public void check(SimConfig cfg) {
    if (cfg.storage() != StorageMode.OFF && pagesPerKey != 1 && !wholeKeyHits) {
      throw new IllegalArgumentException("a spec-shaped run (--trace) with storage on needs --pages-per-key 1:"
          + " a partial prefetch is one node in the spec, a host node and a computed child in the simulator");
    }
    if (cfg.version() == dev.hicachesync.sync.ProtocolVersion.UNIFIED) {
      checkUnified(cfg);
    }
    if (cfg.topology().pp() > 1 && cfg.version() != dev.hicachesync.sync.ProtocolVersion.UNIFIED) { // followed by
      // TraceHiCachePipeline.tla (HiCachePipeline.tla's PPSync "forward"); unified: checkUnified
      if (cfg.version() == dev.hicachesync.sync.ProtocolVersion.PRE20460) {
        throw new IllegalArgumentException("a spec-shaped run (--trace) with --pp > 1 needs --version post20460"
            + " or merged: pre20460 has no cross-stage sync (B6), and HiCachePipeline.tla models the forwarded one");
      }
      if (cfg.storage() != StorageMode.OFF && !wholeKeyHits) { // a replay compares the two queues as the spec's one
        throw new IllegalArgumentException("a spec-shaped run (--trace) with --pp > 1 needs storage off:"
            + " HiCachePipeline.tla folds the revoke queue into the host release queue, the simulator keeps two");
      }
      if (finishInStep || !aborted.isEmpty()) {
        throw new IllegalArgumentException("a spec-shaped run (--trace) with --pp > 1 takes neither --trace-loop"
            + " spec-in-step nor --trace-aborts: those are knobs of HiCacheSync.tla, not of HiCachePipeline.tla");
      }
    }
    if (cfg.version() != dev.hicachesync.sync.ProtocolVersion.UNIFIED
        && cfg.writePolicy() != dev.hicachesync.controller.WritePolicy.WRITE_THROUGH) {
      throw new IllegalArgumentException("a spec-shaped run (--trace) needs --write-policy write_through"
          + " (the only one the spec models)");
    }
    if (cfg.workload() != null) {
      throw new IllegalArgumentException("a spec-shaped run (--trace) has its own request stream; no --workload");
    }
  }

  /** {@code n} requests of keys 1..{@code n}, one page each: {@code HiCacheUnified.tla}'s stream. */
  public static SpecShaped distinct(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("requests must be >= 1, got " + n);
    }
    return new SpecShaped(java.util.stream.IntStream.rangeClosed(1, n).boxed().toList(), 1);
  }

  /**
   * What {@code HiCacheUnified.tla} abstracts a run of version {@code unified} to (its header): every request
   * its own node of one page (so every request prefetches its key when storage is on), no device tier and
   * no host eviction (pools that never fill), no write-through (write_back, so nothing is written while the
   * device pool never fills: S123's write count stays 0, and no storage backup runs), page counts only (the
   * store is seeded per rank by {@link #seedStorage}).
   */
  private void checkUnified(SimConfig cfg) {
    if (finishInStep || !aborted.isEmpty()) {
      throw new IllegalArgumentException("a spec-shaped unified run (--trace) takes neither --trace-loop"
          + " spec-in-step nor --trace-aborts: those are knobs of HiCacheSync.tla, not of HiCacheUnified.tla");
    }
    // PP > 1 is HiCacheUnifiedPipeline.tla's shape, which check --replay drives; simulate --trace refuses it
    // (TraceOptions: no trace module follows it)
    if (pagesPerKey != 1) {
      throw new IllegalArgumentException("a spec-shaped unified run (--trace) needs --pages-per-key 1: HiCacheUnified"
          + " has one page per key");
    }
    if (new java.util.HashSet<>(requests).size() != requests.size()) {
      throw new IllegalArgumentException("a spec-shaped unified run (--trace) needs distinct keys: each request of"
          + " HiCacheUnified has its own node and prefetches it");
    }
    if (cfg.writePolicy() != dev.hicachesync.controller.WritePolicy.WRITE_BACK) {
      throw new IllegalArgumentException("a spec-shaped unified run (--trace) needs --write-policy write_back:"
          + " HiCacheUnified has no write-through (S123's write count is 0)");
    }
    if (cfg.devicePages() < requests.size() || cfg.hostPages() < requests.size()) {
      throw new IllegalArgumentException("a spec-shaped unified run (--trace) needs --device-pages and --host-pages"
          + " of at least one page per request (" + requests.size() + "): HiCacheUnified evicts nothing");
    }
    if (cfg.data().on()) {
      throw new IllegalArgumentException("a spec-shaped unified run (--trace) needs --data off: its store is seeded"
          + " with page counts, not KV bytes");
    }
  }

  /**
   * Whether rank {@code rank}'s L3 holds key {@code key} at the start of a spec-shaped {@code unified} run:
   * drawn from the run's seed, rank by rank, so that S7's local hits differ between ranks (the spec's {@code
   * PfQuery(r, h)} lets each rank find 0 or 1 page).
   */
  static boolean stored(long seed, int rank, int key) {
    return new SplittableRandom(seed ^ 0x5EEDL * (rank + 1) ^ (long) key << 20).nextInt(4) != 0;
  }

  /**
   * Seeds rank {@code rank}'s key space ({@code suffix}) of {@code store} with the keys {@link #stored} says
   * it holds; a spec-shaped {@code unified} run writes nothing to storage itself (write_back, no eviction).
   */
  public void seedStorage(dev.hicachesync.storage.StorageBackend store, String suffix, int rank, long seed, int pageSize) {
    for (int k : requests) {
      if (stored(seed, rank, k)) {
        dev.hicachesync.storage.PageKey key =
            dev.hicachesync.storage.PageKey.chain(null, prompt(k, pageSize), 0, pageSize).withSuffix(suffix);
        store.put(key, java.nio.ByteBuffer.allocate(8)); // what a page-count store holds (NoKvData)
      }
    }
  }
}
