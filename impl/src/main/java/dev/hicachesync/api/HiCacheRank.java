package dev.hicachesync.api;

import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.controller.CacheController;
import dev.hicachesync.controller.ControllerEnv;
import dev.hicachesync.controller.ControllerThreads;
import dev.hicachesync.sync.SyncGroups;
import dev.hicachesync.tier.DeviceTier;
import dev.hicachesync.tier.HostLayout;
import dev.hicachesync.tier.HostPool;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.sync.SyncLayer;
import dev.hicachesync.sync.SyncObserver;
import dev.hicachesync.topology.RankCoord;
import dev.hicachesync.topology.Topology;
import dev.hicachesync.trace.Snapshot;
import dev.hicachesync.trace.TraceRecorder;
import dev.hicachesync.tree.InsertResult;
import dev.hicachesync.tree.MatchResult;
import dev.hicachesync.tree.TreeNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * One rank's HiCache: its replica of the radix tree, its device and host pools, its transfers and the sync
 * points that keep all of it identical across the rank's sync domain. The methods are what SGLang's
 * scheduler calls on its {@code HiRadixCache}, per step and per request.
 *
 * <h2>Threads</h2>
 * Every method is for the rank's <b>scheduler thread</b> only. The rank owns five threads of its own, as
 * SGLang's {@code HiCacheController} does, started by {@link Builder#build()} and stopped by {@link #close()}:
 * the <b>prefetch</b> thread (S7 on the prefetch groups of {@link RankGroups}), the <b>completion-sync</b>
 * thread (version {@code unified}: the per-batch MIN of #27010 on the completion groups), the <b>prefetch I/O</b>
 * thread (storage reads), the <b>backup</b> thread (storage writes) and the <b>copy-completion</b> thread.
 * {@link #runPrefetchThread} hands the prefetch thread its pass; the I/O the protocol starts is handed to
 * the others. With {@link ThreadMode#STEPPED} (the default) each hand-off waits for its hand-back, so the
 * rank is deterministic; with {@link ThreadMode#FREE_RUNNING} the threads race the scheduler as SGLang's do
 * and a failure on one of them is rethrown by the scheduler's next {@link #runPrefetchThread} or {@link
 * #checkHicacheEvents}. {@code docs/explanation/concurrency.md} lists every hand-off.
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
 *       returns true, then {@link #matchPrefix}, {@link #initLoadBack}, {@link #allocForExtend}, the
 *       engine's prefill, {@link #cacheUnfinishedReq};
 *   <li>for each running request: decode ({@link #allocForDecode}) and, once done, {@link #cacheFinishedReq}.
 * </ol>
 * A rank-local reason to skip or reorder one of them (a local clock, a local "batch full") is the bug class
 * this project catalogues (B3, B10): the next collective then mismatches ({@code CollectiveMismatchException})
 * or times out ({@code CollectiveTimeoutException}), both named by the engine's {@code ProcessGroup}.
 */
public final class HiCacheRank implements AutoCloseable {
  /** How long {@link #quiescenceErrors()} waits for free-running threads to go idle. */
  static final long IDLE_WAIT_MILLIS = 5_000;
  final CacheController controller;
  /** The built-in stepped environment's step hook, or null (free-running, or the simulator's environment). */
  private final StepEnvironment steps;
  /**
   * Whether write-through starts when a request finishes ({@code HiCacheSync.tla}'s point, for the
   * simulator's spec-shaped runs through {@link Seam}) instead of at insert ({@code HiRadixCache.insert}).
   */
  private final boolean writeThroughAtFinish;

  /** The rank's trace instrumentation, or null when nothing is recorded. */
  private final TraceInstrumentation trace;

  /** The built-in free-running environment, or null. */
  private final FreeRunningEnvironment free;

  HiCacheRank(CacheController controller, StepEnvironment steps) {
    this(controller, steps, false, null, null);
  }

  HiCacheRank(CacheController controller, StepEnvironment steps, boolean writeThroughAtFinish,
      TraceInstrumentation trace) {
    this(controller, steps, writeThroughAtFinish, trace, null);
  }

  private HiCacheRank(CacheController controller, StepEnvironment steps, boolean writeThroughAtFinish,
      TraceInstrumentation trace, FreeRunningEnvironment free) {
    this.controller = controller;
    this.steps = steps;
    this.writeThroughAtFinish = writeThroughAtFinish;
    this.trace = trace;
    this.free = free;
    if (trace != null) {
      trace.attach(controller);
    }
  }

  /** Returns a builder of the rank that {@code config} describes. Any thread. */
  public static Builder builder(HiCacheConfig config) {
    return new Builder(config);
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
   * Tells the rank's trace instrumentation ({@link Builder#trace}) that the scheduler is about to call its
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
    if (trace != null) {
      int[] q = controller.view().queueSizes();
      dev.hicachesync.controller.ControllerDigest d = controller.view().digest();
      trace.beforeRecv(new Snapshot(controller.view().freeDevicePages(), controller.view().freeHostPages(), q[0], q[1],
          q[2], q[4], waiting, running, q[3], Snapshot.digest(d.tree(), d.acks(), d.prefetch(), d.alloc())));
    }
  }

  /**
   * Returns the engine's RECV group recording its calls into this rank's trace ({@link Builder#trace}) as
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
    return controller.prefetchFromStorage(Objects.requireNonNull(rid, "rid"), m.result, m.tokens);
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
    return controller.loadBack(m.result);
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
    int ps = controller.view().tree().pageSize();
    MatchResult r = m.result;
    TreeNode prefix = loadedTokens > 0 ? r.lastNode() : r.lastDeviceNode();
    int prefixTokens = r.deviceTokens() + loadedTokens;
    controller.lock(prefix);
    int[] fresh = controller.allocateDevice(m.tokens.length / ps - prefixTokens / ps);
    if (fresh == null) {
      controller.unlock(prefix);
      return null;
    }
    CachedRequest req = new CachedRequest(Objects.requireNonNull(rid, "rid"), m.tokens,
        concat(devicePages(prefix), fresh), fresh, prefix);
    req.prefetchedTokens = controller.takePrefetchedTokens(rid);
    return req;
  }

  /**
   * Caches a request's computed prompt ({@code cache_unfinished_req}): inserts its whole pages with their
   * device pages (duplicates freed), applies the write policy to the path (write-through starts here), and
   * moves the request's lock to the inserted node.
   *
   * <p>Thread: scheduler. Collectives: none (write acks are consumed at S1). Order: same on every rank.
   */
  public void cacheUnfinishedReq(CachedRequest req) {
    int ps = controller.view().tree().pageSize();
    InsertResult ins = insert(wholePages(req.tokens, req.pages.length * ps), req.pages);
    TreeNode last = ins.lastNode() == null ? controller.view().tree().root() : ins.lastNode();
    controller.lock(last);
    controller.unlock(req.locked);
    req.locked = last;
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
    int ps = controller.view().tree().pageSize();
    int[] have = devicePages(req.locked);
    int extra = allTokens.length / ps - have.length;
    if (extra <= 0) {
      return new int[0];
    }
    int[] fresh = controller.allocateDevice(extra);
    if (fresh == null) {
      return null;
    }
    req.tokens = allTokens;
    req.pages = concat(have, fresh);
    req.fresh = fresh;
    req.decodePending = true;
    return fresh;
  }

  /**
   * Caches a finished request ({@code cache_finished_req}): inserts the output pages {@link #allocForDecode}
   * allocated (write policy applied) and releases the request's lock. The request is done afterwards.
   *
   * <p>Thread: scheduler. Collectives: none. Order: same on every rank, same step.
   */
  public void cacheFinishedReq(CachedRequest req) {
    if (req.finished) {
      throw new IllegalStateException("request " + req.rid + " is already finished");
    }
    TreeNode last = req.locked;
    if (req.decodePending) {
      int ps = controller.view().tree().pageSize();
      InsertResult ins = insert(wholePages(req.tokens, req.tokens.length / ps * ps), req.pages);
      req.decodePending = false;
      if (ins.lastNode() != null) {
        last = ins.lastNode();
      }
    }
    controller.unlock(req.locked);
    if (writeThroughAtFinish) { // root first, as insert applies the policy along the path
      List<TreeNode> path = new ArrayList<>();
      for (TreeNode t = last; t != null && t.parent() != null; t = t.parent()) {
        path.add(0, t);
      }
      for (TreeNode t : path) {
        controller.writeThrough(t);
      }
    }
    req.finished = true;
  }

  /** Inserts with the write policy applied now, or (write-through at finish) without it. */
  /**
   * Returns {@code tokens} cut (or padded) to {@code length}: the array itself when only a partial last page
   * lies beyond it, which the tree ignores anyway. Why not always a copy: a replay's prompts are thousands
   * of tokens, copied once per rank per admission, and the data path finds a prompt's page seeds
   * by the prompt array's identity.
   */
  private int[] wholePages(int[] tokens, int length) {
    int ps = controller.view().tree().pageSize();
    return length == tokens.length - tokens.length % ps ? tokens : Arrays.copyOf(tokens, length);
  }

  private InsertResult insert(int[] tokens, int[] pages) {
    return writeThroughAtFinish ? controller.insertWithoutBackup(tokens, pages) : controller.insert(tokens, pages);
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
    ControllerThreads busy = controller.threads();
    if (free != null && busy != null) {
      busy.awaitIdle(IDLE_WAIT_MILLIS);
    }
    List<String> errors = new ArrayList<>(controller.view().quiescenceErrors());
    if (steps != null && steps.pending() > 0) {
      errors.add(steps.pending() + " background operations still pending");
    }
    ControllerThreads threads = controller.threads();
    if (threads != null && threads.pending() > 0) {
      errors.add(threads.pending() + " tasks still handed to the rank's threads");
    }
    return errors;
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

  // ================================================================ helpers

  /** Returns the device pages of the path from the root to {@code node}, which must be on the device. */
  static int[] devicePages(TreeNode node) {
    List<int[]> parts = new ArrayList<>();
    int n = 0;
    for (TreeNode t = node; t != null && t.parent() != null; t = t.parent()) {
      int[] p = t.devicePages();
      parts.add(p);
      n += p.length;
    }
    int[] out = new int[n];
    int at = n;
    for (int[] p : parts) {
      at -= p.length;
      System.arraycopy(p, 0, out, at, p.length);
    }
    return out;
  }

  private static int[] concat(int[] a, int[] b) {
    int[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  /** Builds a rank; every setter returns it. */
  public static final class Builder {
    private final HiCacheConfig config;
    private RankGroups groups;
    private HiCacheStorage storage = HiCacheStorage.NONE;
    private TraceRecorder traceRecorder = TraceRecorder.NONE;
    private LongSupplier traceStep;
    private ThreadMode threadMode = ThreadMode.STEPPED;
    private DeviceTier deviceTier;
    private HostLayout hostLayout = HostLayout.PAGE_FIRST;

    private Builder(HiCacheConfig config) {
      this.config = Objects.requireNonNull(config, "config");
    }

    /** The engine's process groups for this rank (required). */
    public Builder groups(RankGroups g) {
      groups = g;
      return this;
    }

    /** The L3 store (default {@link HiCacheStorage#NONE}). */
    public Builder storage(HiCacheStorage s) {
      storage = Objects.requireNonNull(s, "storage");
      return this;
    }

    /**
     * Records the rank's sync points into {@code recorder} (default {@link TraceRecorder#NONE}: nothing is
     * wrapped and nothing recorded): every collective of its groups as the spec names it, each sync point's
     * popped acks, and what {@link HiCacheRank#beforeRecv} hands over. The engine writes the header and
     * records its own RECV through {@link HiCacheRank#traceRecv}; {@code step} is its current scheduler
     * step.
     */
    public Builder trace(TraceRecorder recorder, LongSupplier step) {
      traceRecorder = Objects.requireNonNull(recorder, "recorder");
      traceStep = Objects.requireNonNull(step, "step");
      return this;
    }

    /**
     * The device pool whose pages the engine's forward pass writes (a {@code tier.JCudaDeviceTier} on a GPU,
     * a {@code tier.SimulatedDeviceTier} without one; at least {@code devicePages} pages). The rank then moves
     * real KV bytes: write-through and load-back copy between it and a host pool the rank allocates ({@code
     * hostPages} pages of the tier's geometry, in {@link #hostLayout}), backups and prefetches between that
     * pool and the L3 store. Default: none, page counts only. The engine keeps ownership (the rank never
     * closes it).
     */
    public Builder deviceTier(DeviceTier tier) {
      deviceTier = Objects.requireNonNull(tier, "deviceTier");
      return this;
    }

    /** The host pool's layout with a {@link #deviceTier} (default {@code page_first}, SGLang's default). */
    public Builder hostLayout(HostLayout layout) {
      hostLayout = Objects.requireNonNull(layout, "hostLayout");
      return this;
    }

    /** How the rank's threads hand work back (default {@link ThreadMode#STEPPED}). */
    public Builder threadMode(ThreadMode mode) {
      threadMode = Objects.requireNonNull(mode, "threadMode");
      return this;
    }

    /**
     * Returns the rank, its threads started; a one-line {@link IllegalArgumentException} when the groups are missing or their
     * members are not the ones the configuration's grid gives this rank.
     */
    public HiCacheRank build() {
      if (groups == null) {
        throw new IllegalArgumentException("rank " + config.rank() + ": no process groups (Builder.groups)");
      }
      Topology t = config.topology();
      int r = config.rank();
      checkMembers("attn_tp", groups.attnTp().members(), t.attnTpGroup(r));
      checkMembers("attn_cp", groups.attnCp().members(), t.attnCpGroup(r));
      checkMembers("cp_tp", groups.cpTp().members(), t.cpTpGroup(r));
      checkMembers("prefetch attn_tp", groups.prefetchAttnTp().members(), t.attnTpGroup(r));
      checkMembers("prefetch attn_cp", groups.prefetchAttnCp().members(), t.attnCpGroup(r));
      checkMembers("prefetch cp_tp", groups.prefetchCpTp().members(), t.cpTpGroup(r));
      if (groups.hasCompletionGroups()) {
        checkMembers("completion attn_tp", groups.completionAttnTp().members(), t.attnTpGroup(r));
        checkMembers("completion attn_cp", groups.completionAttnCp().members(), t.attnCpGroup(r));
        checkMembers("completion cp_tp", groups.completionCpTp().members(), t.cpTpGroup(r));
      } else if (config.version() == ProtocolVersion.UNIFIED && threadMode == ThreadMode.FREE_RUNNING) {
        throw new IllegalArgumentException("rank " + r + ": version unified free-running needs the completion-sync "
            + "groups (RankGroups' completion*, #27010): on the prefetch groups S7 and the completion sync race");
      }
      RankCoord c = t.coords(r);
      if ((groups.fromPrev() == null) != (c.pp() == 0) || (groups.toNext() == null) != (c.pp() == t.pp() - 1)) {
        throw new IllegalArgumentException("rank " + r + " is stage " + c.pp() + " of " + t.pp()
            + ": it needs a channel from the previous stage iff pp_rank > 0 and to the next iff not last");
      }
      if (deviceTier != null && deviceTier.capacityPages() < config.devicePages()) {
        throw new IllegalArgumentException("rank " + r + ": the device tier has " + deviceTier.capacityPages()
            + " pages, the configuration's devicePages is " + config.devicePages());
      }
      String name = "rank" + r;
      ControllerThreads threads = threadMode == ThreadMode.STEPPED ? ControllerThreads.stepped(name)
          : ControllerThreads.freeRunning(name);
      StepEnvironment stepped = threadMode == ThreadMode.STEPPED ? new StepEnvironment() : null;
      FreeRunningEnvironment free = stepped == null ? new FreeRunningEnvironment(threads) : null;
      ControllerEnv env = stepped != null ? threads.around(stepped) : free;
      SyncGroups sched = new SyncGroups(groups.attnTp(), groups.attnCp(), groups.cpTp(), null, groups.fromPrev(),
          groups.toNext());
      SyncGroups pf = new SyncGroups(groups.prefetchAttnTp(), groups.prefetchAttnCp(), groups.prefetchCpTp(),
          t.pp() > 1 ? groups.prefetchPp() : null, null, null);
      TraceInstrumentation traced = TraceInstrumentation.of(config.version(), sched, pf, traceRecorder,
          SyncObserver.NONE, config.pageSize(), traceStep);
      if (traced != null) {
        sched = traced.sched();
        pf = traced.prefetch();
      }
      CacheController controller = new CacheController(config.controllerConfig(storage.on()), env,
          new SyncLayer(config.version(), sched), new SyncLayer(config.version(), pf),
          traced != null ? traced.observer() : SyncObserver.NONE, storage.backend, "tp" + t.tpRank(r) + "pp" + c.pp());
      if (groups.hasCompletionGroups()) {
        SyncGroups pfc = new SyncGroups(groups.completionAttnTp(), groups.completionAttnCp(), groups.completionCpTp(),
            t.pp() > 1 ? groups.completionPp() : null, null, null);
        controller.useCompletionSync(new SyncLayer(config.version(),
            traced != null ? traced.completion(config.version(), pfc) : pfc));
      }
      controller.attachThreads(threads);
      if (deviceTier != null) {
        controller.attachData(new TierData(deviceTier, new HostPool(Math.max(1, config.hostPages()),
            deviceTier.layers(), deviceTier.layerBytes(), hostLayout)));
      }
      return new HiCacheRank(controller, stepped, false, traced, free);
    }

    private void checkMembers(String what, List<Integer> got, List<Integer> want) {
      if (!got.equals(want)) {
        throw new IllegalArgumentException("rank " + config.rank() + ": its " + what + " group has members " + got
            + ", the grid " + config.topology() + " gives " + want);
      }
    }
  }
}
