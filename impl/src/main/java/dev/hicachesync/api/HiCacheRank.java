package dev.hicachesync.api;

import dev.hicachesync.api.internal.Seam;
import dev.hicachesync.api.internal.TraceInstrumentation;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.controller.CacheController;
import dev.hicachesync.controller.ControllerThreads;
import java.util.List;
import java.util.Objects;

/**
 * One rank's HiCache: its replica of the radix tree, its device and host pools, its transfers and the sync
 * points that keep all of it identical across the rank's sync domain. The methods are what SGLang's
 * scheduler calls on its {@code HiRadixCache}, per step and per request.
 *
 * <h2>Threads</h2>
 * Every method is for the rank's <b>scheduler thread</b> only. The rank owns five threads of its own, as
 * SGLang's {@code HiCacheController} does, started by {@link HiCacheRankBuilder#build()} and stopped by {@link #close()}:
 * <b>prefetch</b> (S7), <b>completion-sync</b> (version {@code unified}'s per-batch MIN; idle in the other
 * versions), <b>prefetch I/O</b>, <b>backup</b> and <b>copy-completion</b>. {@link ThreadMode} says how they
 * hand work back; a failure on one of them is rethrown by the scheduler's next {@link #runPrefetchThread} or
 * {@link #checkHicacheEvents}. {@code docs/explanation/concurrency.md} lists every hand-off.
 *
 * <h2>Order: what every rank of a group must do alike</h2>
 * The ranks of a sync domain (all attention-CP × attention-TP ranks of a replica, and its pipeline stages)
 * must make the same calls with the same arguments in the same order: the collectives pair by order (the
 * k-th call of every member meets the k-th call of the others), and the calls that issue none still change
 * the tree and the pools, which must stay equal (INV-3, INV-6). A step is {@link StepOrder}'s phases in
 * order:
 * <ol>
 *   <li>{@link #runPrefetchThread} (S7, prefetch groups);
 *   <li>the engine's RECV (the step's new requests, the same on every rank);
 *   <li>for each new request: {@link #matchPrefix}, {@link #prefetchFromStorage};
 *   <li>for each aborted waiting request: {@link #releaseAbortedRequest} (S6);
 *   <li>{@link #checkHicacheEvents} (S1–S3, or S123 in {@code merged});
 *   <li>admission, per waiting request in queue order: {@link #checkPrefetchProgress} (S4, S5) until it
 *       returns true, then {@link #matchPrefix}, {@link #initLoadBack}, {@link #allocForExtend}, {@link
 *       #awaitLoaded}, the engine's prefill, {@link #cacheUnfinishedReq}; for each running request: decode
 *       ({@link #allocForDecode}) and, once done, {@link #cacheFinishedReq}.
 * </ol>
 * A batch's result ({@link #allocForDecode}, {@link #cacheFinishedReq}) may instead be processed right after the
 * next step's RECV ({@link StepOrder.Finish#AFTER_NEXT_RECV}, {@code HiCacheSync.tla}'s default).
 * The rank enforces this order ({@link SchedulerCall} lists the calls it checks, each in its {@link StepOrder}
 * phase): a call the order does not allow next fails at once with a {@link
 * CallOrderException} naming the call it expected, and the other ranks fail with one at the sync point
 * where they meet it, naming the rank, its step and the call it skipped (the rank's scheduler sync points
 * carry each rank's step, {@code OrderStampedGroup}). A rank-local reason to skip or reorder a call (a
 * local clock, a local "batch full") is the bug class this project catalogues (B3, B10); what the order
 * cannot see (two ranks admitting different requests) still ends in a {@code CollectiveMismatchException} or
 * {@code CollectiveTimeoutException} named by the engine's {@code ProcessGroup}, or in different trees.
 */
public final class HiCacheRank implements AutoCloseable {
  /** How long {@link #quiescenceErrors()} waits for free-running threads to go idle. */
  static final long IDLE_WAIT_MILLIS = 5_000;

  static {
    Seam.install(new Seam.Access() {
      @Override
      public HiCacheRank wrap(CacheController controller, boolean writeThroughAtFinish, TraceInstrumentation trace) {
        return new HiCacheRank(controller, null, null, writeThroughAtFinish, trace, null);
      }

      @Override
      public CacheController controller(HiCacheRank rank) {
        return rank.controller;
      }
    });
  }

  private final CacheController controller;
  /** The built-in stepped environment's step hook, or null (free-running, or the simulator's environment). */
  private final StepEnvironment steps;
  /** The built-in free-running environment, or null. */
  private final FreeRunningEnvironment free;
  private final RequestPages requests;
  /** The rank's trace instrumentation, or null when nothing is recorded. */
  private final TraceInstrumentation trace;
  /** Where the rank is in its step; null for the simulator's ranks ({@link Seam}), which break it on purpose. */
  private final OrderGuard order;

  HiCacheRank(CacheController controller, StepEnvironment steps, FreeRunningEnvironment free,
      boolean writeThroughAtFinish, TraceInstrumentation trace, CallOrder order) {
    this.controller = controller;
    this.steps = steps;
    this.free = free;
    this.requests = new RequestPages(controller, writeThroughAtFinish);
    this.trace = trace;
    this.order = order == null ? null : new OrderGuard(order, controller);
    if (trace != null) {
      trace.attach(controller);
    }
  }

  /** Returns a builder of the rank that {@code config} describes. Any thread. */
  public static HiCacheRankBuilder builder(HiCacheConfig config) {
    return new HiCacheRankBuilder(config);
  }

  // ================================================================ per step

  /**
   * The prefetch thread's pass ({@code prefetch_thread_func}): for every prefetch issued since the last
   * pass, this rank's leading storage hits are MIN-reduced (S7) and the agreed pages are read, or the
   * prefetch is revoked below {@code prefetchThresholdTokens}.
   *
   * <p>Thread: scheduler; the pass itself runs on the rank's prefetch thread (stepped: this call returns once
   * the pass is done; free-running: at once, the pass runs behind it). Collectives: on the prefetch thread,
   * one S7 reduction per issued prefetch, on the prefetch groups (and the pp group with PP). Order: every rank
   * of the domain calls it at the same point of the same step.
   */
  public void runPrefetchThread() {
    enter(SchedulerCall.RUN_PREFETCH_THREAD);
    controller.runPrefetchPass();
  }

  /**
   * The per-step event check ({@code check_hicache_events}): consumes the completed write-throughs (S1),
   * load-backs (S2) and storage control queues (S3) in counts all ranks agreed on; in {@code merged} one
   * fused S123 collective. Also moves this rank's built-in clock one step on.
   *
   * <p>Thread: scheduler. Collectives: {@code pre20460} S1, S2 (and S3 with storage) on attn_tp;
   * {@code post20460} each on attn_cp then attn_tp; {@code merged} one on CP×TP; singleton groups skipped;
   * later pipeline stages receive the decisions over {@code fromPrev} instead. Order: once per step on every
   * rank, before admission, even when nothing is pending (B3: skipping it when idle deadlocks).
   */
  public void checkHicacheEvents() {
    enter(SchedulerCall.CHECK_HICACHE_EVENTS);
    ControllerThreads threads = controller.threads();
    if (threads != null) {
      threads.rethrowFailure();
    }
    if (steps != null) {
      steps.beginStep();
    }
    if (free != null) {
      free.beginStep();
    }
    controller.checkHicacheEvents();
  }

  /**
   * Tells the rank's trace instrumentation ({@link HiCacheRankBuilder#trace}) that the scheduler is about to call its
   * RECV, with its own request state in the spec's terms: the trace's RECV line then carries this rank's
   * free pages, queue lengths and these two. Does nothing when tracing is off.
   *
   * <p>Thread: scheduler. Collectives: none. Order: right before each RECV.
   *
   * <p>The line also carries the rank's backup acks queued and its digest (one running hash per invariant),
   * which {@code validate-trace} compares across the sync domain.
   *
   * @param waiting the index (from 1) of the request waiting for admission, 0 for none; a scheduler that keeps
   *     several (a loop of its own, not shaped as the spec's one request at a time) gives their number
   * @param running the index (from 1) of the request running, 0 for none; or, likewise, their number
   */
  public void beforeRecv(int waiting, int running) {
    beforeRecv(waiting, running, -1);
  }

  /**
   * {@link #beforeRecv(int, int)} from a scheduler that aborts running requests (an abort finishes the request
   * with {@link #cacheFinishedReq}, as SGLang's {@code abort_request} does: no call or sync point of its own):
   * the RECV line then also carries {@code abortedRunning}, how many running requests it aborted so far, which
   * {@code validate-trace} compares across the sync domain.
   *
   * @param abortedRunning running requests aborted so far, or -1 to log none
   */
  public void beforeRecv(int waiting, int running, long abortedRunning) {
    if (trace != null) {
      trace.beforeRecv(RankReadout.recvSnapshot(controller, waiting, running, abortedRunning));
    }
  }

  /**
   * Returns the engine's RECV group recording its calls into this rank's trace ({@link HiCacheRankBuilder#trace}) as
   * the spec's RECV (site {@code RECV}, group kind {@code domain}, channel {@code sched}); {@code recv}
   * itself when tracing is off, so that an untraced engine pays nothing.
   *
   * <p>Thread: any, once at start-up. Collectives: none.
   */
  public ProcessGroup traceRecv(ProcessGroup recv) {
    return trace == null ? recv : trace.recv(recv);
  }

  // ================================================================ per request

  /**
   * Matches {@code tokens} against the tree ({@code match_prefix}): the device hit, then the host-only hit.
   * Touches no pool; the result is valid within the step. The match keeps {@code tokens} without copying
   * it (a prompt is thousands of tokens, matched twice per request): do not change the array while the match
   * is in use.
   *
   * <p>Thread: scheduler. Collectives: none. Order: free (it changes nothing every rank must agree on).
   */
  public PrefixMatch matchPrefix(int[] tokens) {
    return new PrefixMatch(tokens, controller.matchPrefix(tokens));
  }

  /**
   * Starts a storage prefetch of the part of {@code m}'s query beyond the tree's hits ({@code
   * prefetch_from_storage}) when storage is on, the part is at least {@code prefetchThresholdTokens} and host
   * slots can be had; returns whether one was queued for {@link #runPrefetchThread}.
   *
   * <p>Thread: scheduler. Collectives: none here (S7 follows in {@link #runPrefetchThread}). Order: every rank
   * issues the same prefetches in the same order, when the request arrives.
   */
  public boolean prefetchFromStorage(String rid, PrefixMatch m) {
    enter(SchedulerCall.PREFETCH_FROM_STORAGE);
    return controller.prefetchFromStorage(Objects.requireNonNull(rid, "rid"), m.result(), m.tokens());
  }

  /**
   * Returns true once request {@code rid} may be admitted: it has no prefetch, or its prefetch is finished
   * and its agreed pages are in the host tree ({@code check_prefetch_progress}); false while it must wait.
   *
   * <p>Thread: scheduler. Collectives: with a prefetch ongoing, S4 (MAX, policies {@code wait_complete} and
   * {@code timeout}) and, when it terminates, S5 (MIN of pages read); none without one. Order: every rank
   * checks the same waiting requests in the same queue order and stops at the same one (B10: a rank-local
   * early exit before these checks deadlocks).
   */
  public boolean checkPrefetchProgress(String rid) {
    enter(SchedulerCall.CHECK_PREFETCH_PROGRESS);
    return !controller.hasOngoingPrefetch(rid) || controller.checkPrefetchProgress(rid);
  }

  /**
   * Releases what an aborted waiting request holds for its prefetch: host slots and the anchor ({@code
   * release_aborted_request}).
   *
   * <p>Thread: scheduler. Collectives: S6, a barrier, when the request has a prefetch ongoing. Order: every
   * rank aborts the same requests in the same step.
   */
  public void releaseAbortedRequest(String rid) {
    enter(SchedulerCall.RELEASE_ABORTED_REQUEST);
    controller.releaseAbortedRequest(rid);
    controller.takePrefetchedTokens(rid);
  }

  /**
   * Loads the host-only part of {@code m} back to the device when it is at least {@code
   * loadBackThresholdTokens} ({@code init_load_back}); returns the tokens loaded (0 if none or no device
   * memory). The loaded path stays locked until S2 agrees the copy has landed.
   *
   * <p>Thread: scheduler. Collectives: none (the load ack is consumed at S2). Order: same on every rank.
   */
  public int initLoadBack(PrefixMatch m) {
    enter(SchedulerCall.INIT_LOAD_BACK);
    return controller.loadBack(m.result());
  }

  /**
   * Admits a request: locks its cached prefix ({@code m}'s device hit plus the {@code loadedTokens} that
   * {@link #initLoadBack} loaded) and allocates device pages for the rest of its whole pages, evicting
   * unlocked leaves if needed ({@code alloc_for_extend}). Returns the request's cache state, whose {@link
   * CachedRequest#freshPages()} the prefill writes; null (nothing held) when the device has no room.
   *
   * <p>Thread: scheduler. Collectives: none. Order: same on every rank (the pools agree, so a null here is
   * a null everywhere, INV-6).
   */
  public CachedRequest allocForExtend(String rid, PrefixMatch m, int loadedTokens) {
    enter(SchedulerCall.ALLOC_FOR_EXTEND);
    return requests.allocForExtend(rid, m, loadedTokens);
  }

  /**
   * Returns whether every device page {@code req} holds (its cached prefix and its fresh pages) has its bytes:
   * false while a load-back into one of them, this request's or an earlier one's sharing the prefix, is still
   * copying. Never blocks. With no {@link HiCacheRankBuilder#deviceTier} no bytes move and this answers whether the
   * load-backs' copies are done.
   *
   * <p>Thread: scheduler. Collectives: none. Order: free (it changes nothing every rank must agree on).
   */
  public boolean isLoaded(CachedRequest req) {
    return controller.loaded(req.pagesHeld());
  }

  /**
   * Blocks until every device page {@code req} holds has its bytes ({@code load_cache_event}'s wait in SGLang's
   * forward pass): call it after {@link #allocForExtend} and before the engine's forward pass reads the
   * request's prefix. A load-back's bytes otherwise land only around a later {@link #checkHicacheEvents} (the
   * S2 that pops its ack), and on every device tier a read before that may return the pages' old bytes. On a
   * GPU the engine may instead make its compute stream wait for the copies; the rank then learns they are
   * done at S2 as before. Pages a storage prefetch brought in need nothing more: {@link #checkPrefetchProgress}
   * returns true only once they are in the host tree, and their way to the device is a load-back.
   *
   * <p>Thread: scheduler. Collectives: none: only the awaited copies complete earlier here; S2 still pops them
   * at the count every rank agrees on. Order: free; every rank of a domain should make it at the same point
   * (the stepped environment completes an awaited copy at once, which a rank that does not await sees a step
   * later).
   */
  public void awaitLoaded(CachedRequest req) {
    controller.awaitLoaded(req.pagesHeld());
  }

  /**
   * Caches a request's computed prompt ({@code cache_unfinished_req}): inserts its whole pages with their
   * device pages (duplicates freed), applies the write policy to the path (write-through starts here), and
   * moves the request's lock to the inserted node.
   *
   * <p>Thread: scheduler. Collectives: none (write acks are consumed at S1). Order: same on every rank.
   */
  public void cacheUnfinishedReq(CachedRequest req) {
    enter(SchedulerCall.CACHE_UNFINISHED_REQ);
    requests.cacheUnfinishedReq(req);
  }

  /**
   * Allocates device pages for a running request's tokens beyond its cached pages: {@code allTokens} is its
   * prompt and output so far (kept without copying, as in {@link #matchPrefix}: do not change it before
   * {@link #cacheFinishedReq}). Returns the new pages for the decode to write (empty when none are needed),
   * or null when the device has no room (then {@link #cacheFinishedReq} caches only the prompt).
   *
   * <p>Thread: scheduler. Collectives: none. Order: same on every rank.
   */
  public int[] allocForDecode(CachedRequest req, int[] allTokens) {
    enter(SchedulerCall.ALLOC_FOR_DECODE);
    return requests.allocForDecode(req, allTokens);
  }

  /**
   * Caches a finished request ({@code cache_finished_req}): inserts the output pages {@link #allocForDecode}
   * allocated (write policy applied) and releases the request's lock. The request is done afterwards.
   *
   * <p>Thread: scheduler. Collectives: none. Order: same on every rank, same step.
   */
  public void cacheFinishedReq(CachedRequest req) {
    enter(SchedulerCall.CACHE_FINISHED_REQ);
    requests.cacheFinishedReq(req);
  }

  /**
   * Evicts unlocked device leaves for {@code pages} pages (backing them up first under {@code write_back});
   * returns the pages freed ({@code evict}).
   *
   * <p>Thread: scheduler. Collectives: none. Order: same on every rank (victims follow the replicated LRU
   * clock, INV-3).
   */
  public int evict(int pages) {
    return controller.evictDevice(pages);
  }

  // ================================================================ views

  /** Returns the digest of the tree; equal on every rank of a domain after the same step. Scheduler thread. */
  public long treeDigest() {
    return controller.view().tree().digest().hash();
  }

  /** Returns the free device pages. Scheduler thread. */
  public int freeDevicePages() {
    return controller.view().freeDevicePages();
  }

  /** Returns the free host pages. Scheduler thread. */
  public int freeHostPages() {
    return controller.view().freeHostPages();
  }

  /**
   * Returns why the rank is not quiet (acks, prefetches or slots still held, work still handed to its
   * threads); empty once drained. Free-running, first waits up to {@value #IDLE_WAIT_MILLIS} ms for the
   * rank's threads to finish what they were handed (a copy completion or a last empty S3's backup can
   * trail the scheduler's last step by a moment). Scheduler thread.
   */
  public List<String> quiescenceErrors() {
    return RankReadout.quiescenceErrors(controller, steps, free != null, IDLE_WAIT_MILLIS);
  }

  /**
   * Waits up to {@code timeoutMillis} until the rank's own threads have finished everything handed to them
   * (free-running; stepped they always have); returns whether they did. For an idle scheduler: its next event
   * check then sees every transfer this rank started as done, so a drain of idle steps ends in a bounded
   * number of steps however slow the I/O threads are. Changes nothing every rank must agree on. Scheduler thread.
   */
  public boolean awaitThreadsIdle(long timeoutMillis) {
    ControllerThreads threads = controller.threads();
    return threads == null || threads.awaitIdle(timeoutMillis);
  }

  /**
   * Stops the rank's threads after the work already handed to them; a collective one of them is blocked in
   * fails at the groups' timeout. The rank is unusable afterwards. Scheduler thread; idempotent.
   */
  @Override
  public void close() {
    controller.closeThreads();
  }

  /** Records {@code call} in the step order, failing on a skipped call ({@link OrderGuard}). */
  private void enter(SchedulerCall call) {
    if (order != null) {
      order.enter(call);
    }
  }
}
