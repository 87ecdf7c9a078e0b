package dev.hicachesync.sim;

import dev.hicachesync.api.CachedRequest;
import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.api.PrefixMatch;
import dev.hicachesync.api.StepOrder;
import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.controller.CacheController;
import dev.hicachesync.monitor.ConsensusTap;
import dev.hicachesync.sim.datapath.DataPath;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.environment.RankEnv;
import dev.hicachesync.sim.workload.Request;
import dev.hicachesync.sim.workload.Workload;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * One rank's scheduler loop, the only one: the simulator's runs, the Mooncake replay, the stateful tests and
 * the spec-shaped runs of {@code --trace} all step through {@link #step}. A step is the phases of its {@link
 * LoopShape} in {@link StepOrder}'s order: the prefetch thread's pass (S7), RECV (the run's {@link Intake}),
 * arrivals with storage prefetch, aborts (S6), the event checks (S1–S3), admission with prefetch checks (S4,
 * S5), load-back, prefill insert, and finished requests caching their output. Every cache call goes through the public
 * {@link HiCacheRank}, as an engine's would; {@link #controller} (the same rank's internals) is read only
 * for the checks and statistics, and by a spec-shaped shape's storage settling (an environment wait).
 *
 * <p>Rank thread only. Every decision here depends only on the request stream and the controller's synced
 * state, except under {@link Fault#EARLY_ADMISSION_EXIT}.
 */
final class RankEngine {
  private final int rank;
  private final CacheController controller;
  /** The public API of this rank: the only thing the loop calls for cache decisions. */
  private final HiCacheRank api;
  private final RankEnv env;
  private final RankRecorder recorder;
  private final EngineStats stats = new EngineStats();
  private final Simulator sim;
  private final SimConfig cfg;
  private final Workload workload;
  private final LoopShape shape;
  private final DomainChecker checker;
  private final boolean earlyExit;
  /** Fault {@link Fault#LOCAL_LRU_CLOCK}: this rank's LRU order follows its own clock. */
  private final boolean lruClockSkew;
  /** The waiting-queue timeout of a {@code unified} fault scenario, or null. */
  private final WaitingTimeout waitingTimeout;
  private final RuntimeAttach attach;
  private final ArrayDeque<Request> waiting = new ArrayDeque<>();
  private final List<Running> running = new ArrayList<>();
  private volatile String where = "start";
  /** Every group handle this rank uses, for {@code StopSignals#poison}. */
  private final List<ProcessGroup> handles = new ArrayList<>();
  /** The channel to the next pipeline stage, or null. */
  private PipeChannel toNext;
  /** The data path that moves this rank's KV bytes, or null when only page counts move. */
  private DataPath data;
  /** The readable event log, or null when none was asked for. */
  private final EventLog log;
  /** What RECV carries: the workload's broadcast unless the simulator sets another (spec-shaped runs). */
  private Intake intake;
  /** Requests and aborts a {@link SimulationRun} injects into this rank's replica, or null in a run. */
  private Injections injections;
  /** The consensus checker's hook on the admission's decorated calls (the spec's), or one that observes nothing. */
  private final ConsensusTap consensus;

  /**
   * @param api the public API over {@code controller} ({@code Seam.wrap}, with the shape's write timing and
   *     the rank's trace instrumentation)
   */
  RankEngine(int rank, Simulator sim, SimConfig cfg, LoopShape shape, HiCacheRank api, CacheController controller,
      RankEnv env, RankRecorder recorder, Workload workload, ProcessGroup recv, DomainChecker checker,
      EventLog log) {
    this.rank = rank;
    this.sim = sim;
    this.cfg = cfg;
    this.shape = shape;
    this.controller = controller;
    this.api = api;
    this.env = env;
    this.recorder = recorder;
    this.workload = workload;
    this.checker = checker;
    this.earlyExit = cfg.faults().contains(Fault.EARLY_ADMISSION_EXIT);
    this.lruClockSkew = cfg.faults().contains(Fault.LOCAL_LRU_CLOCK);
    this.waitingTimeout = WaitingTimeout.of(cfg.faults());
    this.attach = new RuntimeAttach(rank, cfg, controller);
    this.log = log;
    this.intake = new WorkloadIntake(this, cfg.steps(), recv);
    this.consensus = ConsensusTap.of(cfg.consensusMonitor(), rank);
  }

  /** Runs step {@code s}; returns false when the run stops (the domain agreed so at RECV). */
  boolean step(long s) {
    recorder.begin(s);
    env.beginStep(s);
    if (lruClockSkew) {
      controller.skewLruClock(env.lruClockSkewed());
    }
    where = "step " + s + " RECV";
    boolean stop = sim.stopped();
    if (checker != null && s >= 2 && !(stop && shape.stopOnDivergence())) {
      Divergence d = checker.check(s - 2); // every member finished s-2 before RECV(s-1) completed
      if (d != null) {
        sim.report(d);
        stop = true;
      }
    }
    if (log != null) {
      log.step(s);
    }
    List<Request> arrivals = List.of();
    for (StepOrder phase : shape.phases()) {
      switch (phase) {
        case PREFETCH_THREAD -> {
          if (env.prefetchPassRuns()) {
            prefetchThread(s);
          }
        }
        case RECV -> {
          where = "step " + s + " RECV";
          arrivals = intake.receive(s, stop && shape.stopOnDivergence());
          if (arrivals == null) {
            return false;
          }
          attach.atRecv(s);
        }
        case EVENTS -> {
          if (env.prefetchPassBeforeEvents()) { // the storage thread scheduled mid-step (a replay's choice)
            prefetchThread(s);
          }
          where = "step " + s + " events";
          api.checkHicacheEvents();
        }
        case ARRIVALS -> {
          where = "step " + s + " admission";
          arrive(arrivals, s);
        }
        case ABORTS -> abort(s);
        case ADMIT -> {
          if (env.landsIoBeforeAdmission()) { // a read that completed mid-step (a replay's choice)
            env.landDue();
          }
          where = "step " + s + " admission";
          admit(s);
        }
        case FINISH -> finish(s);
      }
    }
    if (cfg.fullDigestEvery() > 0 && s % cfg.fullDigestEvery() == cfg.fullDigestEvery() - 1) {
      recorder.fullDigest(controller.view().tree().digest().hash());
    }
    attach.atStepEnd(s);
    recorder.endStep();
    stats.stepRan(s);
    return true;
  }

  /** The first waiting request, or null. */
  Request firstWaiting() {
    return waiting.peek();
  }

  /** The number of waiting requests. */
  int waitingCount() {
    return waiting.size();
  }

  /** The number of running requests. */
  int runningCount() {
    return running.size();
  }

  /** Running requests aborted so far when the run aborts running requests ({@link SimConfig#abortRunning}), else -1. */
  long abortedRunningLogged() {
    return cfg.abortRunning() > 0 ? stats.abortedRunning() : -1;
  }

  /** Whether a runtime attach request waits to be handled (a retry at the next RECV). */
  boolean attachPending() {
    return attach.pending();
  }

  /** The first running request, or null. */
  Request firstRunning() {
    return running.isEmpty() ? null : running.get(0).request;
  }

  /** The prefetch thread's pass, then (spec-shaped) its outcomes made to arrive at once unless the timing times them. */
  private void prefetchThread(long s) {
    if (cfg.storage() == StorageMode.OFF) {
      return;
    }
    if (cfg.faults().contains(Fault.PREFETCH_THREAD_DIES) && env.prefetchThreadDies()) {
      controller.prefetchThreadDies(); // its storage query raised: no pass of this rank runs from now on
    }
    if (shape.settleStorage()) {
      where = "step " + stats.stepsRun() + " prefetch thread";
      api.runPrefetchThread();
      if (env.settlesPrefetchOutcomes()) { // else each outcome reaches the scheduler when its timing says
        env.awaitCondition(controller.view()::storageQueuesSettled);
      }
      env.landDue(); // I/O the pass started that takes no time (a scripted schedule's) lands in this phase
    } else {
      where = "step " + s + " events";
      api.runPrefetchThread();
    }
  }

  private void arrive(List<Request> arrivals, long s) {
    for (Request r : arrivals) {
      stats.requestArrived();
      if (cfg.faults().contains(Fault.PD_DECODE_RESTORE)) { // PD decode: the prompt waits on this rank's host tier
        controller.restoreOnHost(r.prompt());
      }
      api.prefetchFromStorage(r.rid(), api.matchPrefix(r.prompt()));
      waiting.add(r);
      if (waitingTimeout != null) {
        waitingTimeout.arrived(r.rid(), s, env.now());
      }
    }
  }

  /** Returns why this rank is not quiet after the drain (empty when it is). */
  List<String> quiescenceErrors() {
    List<String> errors = new ArrayList<>();
    if (!waiting.isEmpty() || !running.isEmpty()) {
      errors.add("RequestsProgress: " + waiting.size() + " waiting and " + running.size() + " running");
    }
    if (env.pending() > 0) {
      errors.add(env.pending() + " background operations still pending at tick " + env.now() + " after step "
          + (stats.stepsRun() - 1));
    }
    errors.addAll(controller.view().quiescenceErrors());
    return errors;
  }

  private void abort(long s) {
    for (Iterator<Request> it = waiting.iterator(); it.hasNext(); ) {
      Request r = it.next();
      if (r.abortStep() == s || injections != null && injections.aborted(r.rid(), s) || env.abortsWaiting(r.rid())
          || waitingTimeout != null && waitingTimeout.expired(r.rid(), s, env.now())) {
        consensus.releaseAbortedRequest(api, r.rid(), s);
        if (shape.settleStorage()) { // the spec frees an aborted read's pages at once: wait for this rank's reader
          env.awaitCondition(controller.view()::storageQueuesSettled);
        }
        it.remove();
        if (waitingTimeout != null) {
          waitingTimeout.left(r.rid());
        }
        stats.requestAborted();
      }
    }
  }

  private void admit(long s) { // LOCAL_QUEUE_ORDER: this rank's schedule policy may take the newest first
    boolean newestFirst = cfg.faults().contains(Fault.LOCAL_QUEUE_ORDER) && env.queueOrderSkewed();
    for (Iterator<Request> it = newestFirst ? waiting.descendingIterator() : waiting.iterator(); it.hasNext(); ) {
      if (earlyExit && env.localBatchFull()) {
        break; // B10: a rank-local exit before the prefetch checks of the requests behind
      }
      if (running.size() >= shape.maxRunning() || env.batchIsFull()) {
        break; // batch_is_full: every rank's running batch is full (a replay's BatchFills "busy")
      }
      Request r = it.next();
      if (r.eligibleStep() > s || !intake.waitingQueueHolds(r.rid())) { // PD prefill: still bootstrapping
        continue;
      }
      boolean settle = shape.settleStorage() && controller.hasOngoingPrefetch(r.rid());
      if (!consensus.checkPrefetchProgress(api, r.rid(), s)) {
        continue;
      }
      if (settle) { // S5's released slots wait for this rank's reader to stop (B7's fix): wait for that
        env.awaitCondition(controller.view()::storageQueuesSettled);
      }
      if (!tryAdmit(r, s)) {
        break; // no device memory: the same on every rank, since the pools agree (INV-6)
      }
      it.remove();
      if (waitingTimeout != null) {
        waitingTimeout.left(r.rid());
      }
    }
  }

  private boolean tryAdmit(Request r, long s) {
    int ps = cfg.pageSize();
    int[] prompt = r.prompt();
    PrefixMatch m = consensus.matchPrefix(api, r.rid(), prompt, s);
    int loaded = api.initLoadBack(m);
    int prefixTokens = m.deviceTokens() + loaded;
    CachedRequest req = api.allocForExtend(r.rid(), m, loaded);
    if (req == null) {
      return false;
    }
    if (data != null) {
      data.computePrompt(req.freshPages(), prompt, prefixTokens / ps, ps); // prefill writes the KV it computed
    }
    api.cacheUnfinishedReq(req);
    int fromStorage = Math.min(loaded, req.prefetchedTokens());
    stats.admitted(prompt.length, m.deviceTokens(), loaded - fromStorage, fromStorage, prompt.length - prefixTokens);
    workload.admitted(r, m.deviceTokens(), loaded - fromStorage, fromStorage);
    int abortAfter = abortRunningAfter(r);
    running.add(new Running(r, req, s + (abortAfter > 0 ? abortAfter : r.decodeSteps()), abortAfter));
    return true;
  }

  /**
   * The decode steps after which the admitted request {@code r} is aborted while it runs ({@link
   * SimConfig#abortRunning}), or 0 when it runs to its end: a draw from the run's seed and the request's id
   * alone, so every rank of the domain aborts the same requests at the same step (the client's AbortReq
   * arrives with RECV's broadcast).
   */
  private int abortRunningAfter(Request r) {
    if (cfg.abortRunning() <= 0 || r.decodeSteps() < 2) {
      return 0;
    }
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(cfg.seed() * 0x9E3779B97F4A7C15L
        ^ r.rid().hashCode() * 0xBF58476D1CE4E5B9L);
    return rnd.nextDouble() < cfg.abortRunning() ? 1 + rnd.nextInt(r.decodeSteps() - 1) : 0;
  }

  /**
   * Finishes the running requests due at step {@code s}. A request aborted while it runs ({@link
   * #abortRunningAfter}) finishes here too, as SGLang's does: {@code abort_request} marks it finished
   * ({@code set_finish_with_abort}), and the batch's result releases it like any finished request
   * ({@code release_kv_cache}, {@code cache_finished_req}), caching the prompt and the output it decoded before
   * the abort. No sync point of its own: the abort arrived with RECV's broadcast, the same on every rank.
   */
  private void finish(long s) {
    for (Iterator<Running> it = running.iterator(); it.hasNext(); ) {
      Running run = it.next();
      if (run.doneStep > s) {
        continue;
      }
      it.remove();
      RunningAbort.finishing(this, cfg, run.request.rid(), run.cached, run.abortAfter > 0);
      int[] output = run.request.output();
      if (run.abortAfter > 0) {
        stats.requestAborted();
        stats.runningAborted();
        output = java.util.Arrays.copyOf(output, (int) ((long) output.length * run.abortAfter
            / run.request.decodeSteps()));
      } else {
        stats.requestFinished();
      }
      int ps = cfg.pageSize();
      int[] full = concat(run.request.prompt(), output);
      int[] fresh = api.allocForDecode(run.cached, full);
      if (fresh != null && fresh.length > 0 && data != null) {
        data.compute(fresh, full, full.length / ps - fresh.length, ps); // decode wrote the output's KV
      }
      api.cacheFinishedReq(run.cached);
    }
  }

  private static int[] concat(int[] a, int[] b) {
    int[] r = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  /**
   * A request in the running batch: its cache state on this rank, when it finishes, and after how many decode
   * steps it is aborted (0: never).
   */
  private record Running(Request request, CachedRequest cached, long doneStep, int abortAfter) {}

  // ---------------------------------------------------------------- the rank's parts, for the run's other classes

  int rank() { return rank; }
  CacheController controller() { return controller; }
  HiCacheRank api() { return api; }
  RankEnv env() { return env; }
  RankRecorder recorder() { return recorder; }
  EngineStats stats() { return stats; }
  Workload workload() { return workload; }
  String where() { return where; }
  List<ProcessGroup> handles() { return handles; }
  PipeChannel toNext() { return toNext; }
  DataPath data() { return data; }
  EventLog log() { return log; }
  Intake intake() { return intake; }
  Simulator sim() { return sim; }
  Injections injections() { return injections; }

  /** Sets the channel to the next pipeline stage (assembly). */
  void toNext(PipeChannel next) { this.toNext = next; }
  /** Sets the data path (assembly). */
  void data(DataPath path) { this.data = path; }
  /** Replaces what RECV carries (a spec-shaped run). */
  void intake(Intake in) { this.intake = in; }
  /** Sets what a {@link SimulationRun} injects into this rank's replica. */
  void injections(Injections in) { this.injections = in; }
}
