package dev.hicachesync.sim;

import dev.hicachesync.api.CachedRequest;
import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.api.PrefixMatch;
import dev.hicachesync.api.Seam;
import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.controller.CacheController;
import dev.hicachesync.sync.SyncPoint;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * One rank's scheduler loop ({@code scheduler.py}, reduced to what the cache sees): RECV, the prefetch
 * thread's pass (S7), the event checks (S1–S3), arrivals with storage prefetch, aborts (S6), admission with
 * prefetch checks (S4, S5), load-back, prefill insert, and finished requests caching their output. Every
 * cache call goes through the public {@link HiCacheRank}, as an engine's would; {@link #controller} (the
 * same rank's internals) is read only for the checks and statistics.
 *
 * <p>Rank thread only. Every decision here depends only on the request stream and the controller's synced
 * state, except under {@link Fault#EARLY_ADMISSION_EXIT}.
 */
final class RankEngine {
  final int rank;
  final CacheController controller;
  /** The public API of this rank: the only thing the loop calls for cache decisions. */
  final HiCacheRank api;
  final RankEnv env;
  final RankRecorder recorder;
  final EngineStats stats = new EngineStats();
  private final Simulator sim;
  private final SimConfig cfg;
  final Workload workload;
  private final ProcessGroup recv;
  private final int recvRoot;
  private final DomainChecker checker;
  private final boolean earlyExit;
  /** The waiting-queue timeout of a {@code unified} fault scenario, or null. */
  private final WaitingTimeout waitingTimeout;
  private final ArrayDeque<Request> waiting = new ArrayDeque<>();
  private final List<Running> running = new ArrayList<>();
  volatile String where = "start";
  /** Every group handle this rank uses, for {@code Simulator#poison}. */
  final List<ProcessGroup> handles = new ArrayList<>();
  /** The channel to the next pipeline stage, or null. */
  PipeChannel toNext;
  /** The data path that moves this rank's KV bytes, or null when only page counts move. */
  DataPath data;
  /** The readable event log, or null when none was asked for. */
  final EventLog log;
  /** The spec-shaped scheduler that runs this rank's steps instead of {@link #step}'s own, or null. */
  SpecShapedSteps shaped;
  /** Requests and aborts a {@link SimulationRun} injects into this rank's replica, or null in a run. */
  SimulationRun.Injections injections;

  RankEngine(int rank, Simulator sim, SimConfig cfg, CacheController controller, RankEnv env,
      RankRecorder recorder, Workload workload, ProcessGroup recv, DomainChecker checker, EventLog log) {
    this.rank = rank;
    this.sim = sim;
    this.cfg = cfg;
    this.controller = controller;
    this.api = Seam.wrap(controller);
    this.env = env;
    this.recorder = recorder;
    this.workload = workload;
    this.recv = recv;
    this.recvRoot = recv.members().get(0);
    this.checker = checker;
    this.earlyExit = cfg.faults().contains(Fault.EARLY_ADMISSION_EXIT);
    this.waitingTimeout = WaitingTimeout.of(cfg.faults());
    this.log = log;
  }

  /** Runs step {@code s}; returns false when the run stops (the domain's root said so at RECV). */
  boolean step(long s) {
    if (shaped != null) {
      return shaped.step(s);
    }
    recorder.begin(s);
    env.beginStep(s);
    // Drain steps (after the run proper) admit no new requests: the rank should fall quiet.
    List<Request> arrivals = s < cfg.steps() ? workload.arrivals(s) : List.of();
    if (injections != null) {
      arrivals = injections.arrivals(s, arrivals);
    }
    where = "step " + s + " RECV";
    boolean stop = sim.stopped();
    if (checker != null && s >= 2 && !stop) {
      Divergence d = checker.check(s - 2); // every member finished s-2 before RECV(s-1) completed
      if (d != null) {
        sim.report(d);
        stop = true;
      }
    }
    if (log != null) {
      log.step(s);
    }
    long[] head = {s, arrivals.size(), stop ? 1 : 0};
    long[] mine = head;
    if (recv.size() > 1) {
      head = recv.broadcast(SyncPoint.RECV.name(), recvRoot, head);
      stats.recvCollectives++;
    }
    if (head[2] != 0) {
      return false;
    }
    if (head[0] != s || head[1] != arrivals.size()) {
      throw new IllegalStateException("rank " + rank + " has " + arrivals.size() + " arrivals at step " + s
          + ", the root " + head[1] + " at step " + head[0] + ": the workload is not deterministic");
    }
    recorder.afterSync(SyncPoint.RECV);
    if (log != null) {
      log.add(SyncPoint.RECV.name(), mine, head);
    }
    where = "step " + s + " events";
    if (s == Fault.ATTACH_STEP && Fault.runtimeAttach(cfg.faults())) {
      // The runtime attach request every rank handles at this step (unified, F1): the odd ranks' backends
      // fail to initialise. Through the controller: the API has no attach call (a fault scenario's seam).
      controller.attachStorage(rank % 2 == 0, cfg.faults().contains(Fault.ATTACH_AGREED));
    }
    if (cfg.storage() != StorageMode.OFF) {
      api.runPrefetchThread();
    }
    api.checkHicacheEvents();
    where = "step " + s + " admission";
    for (Request r : arrivals) {
      stats.arrived++;
      api.prefetchFromStorage(r.rid(), api.matchPrefix(r.prompt()));
      waiting.add(r);
      if (waitingTimeout != null) {
        waitingTimeout.arrived(r.rid(), s, env.now());
      }
    }
    abort(s);
    admit(s);
    finish(s);
    if (cfg.fullDigestEvery() > 0 && s % cfg.fullDigestEvery() == cfg.fullDigestEvery() - 1) {
      recorder.fullDigest(controller.tree().digest().hash());
    }
    recorder.endStep();
    stats.stepsRun = s + 1;
    return true;
  }

  /** Returns why this rank is not quiet after the drain (empty when it is). */
  List<String> quiescenceErrors() {
    List<String> errors = new ArrayList<>();
    if (!waiting.isEmpty() || !running.isEmpty()) {
      errors.add("RequestsProgress: " + waiting.size() + " waiting and " + running.size() + " running");
    }
    if (env.pending() > 0) {
      errors.add(env.pending() + " background operations still pending at tick " + env.now() + " after step "
          + (stats.stepsRun - 1));
    }
    errors.addAll(controller.quiescenceErrors());
    return errors;
  }

  private void abort(long s) {
    for (Iterator<Request> it = waiting.iterator(); it.hasNext(); ) {
      Request r = it.next();
      if (r.abortStep() == s || injections != null && injections.aborted(r.rid(), s)
          || waitingTimeout != null && waitingTimeout.expired(r.rid(), s, env.now())) {
        api.releaseAbortedRequest(r.rid());
        it.remove();
        if (waitingTimeout != null) {
          waitingTimeout.left(r.rid());
        }
        stats.aborted++;
      }
    }
  }

  private void admit(long s) {
    for (Iterator<Request> it = waiting.iterator(); it.hasNext(); ) {
      if (earlyExit && env.localBatchFull()) {
        break; // B10: a rank-local exit before the prefetch checks of the requests behind
      }
      if (running.size() >= cfg.maxRunning()) {
        break;
      }
      Request r = it.next();
      if (r.eligibleStep() > s) {
        continue;
      }
      if (!api.checkPrefetchProgress(r.rid())) {
        continue;
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
    PrefixMatch m = api.matchPrefix(prompt);
    int loaded = api.initLoadBack(m);
    int prefixTokens = m.deviceTokens() + loaded;
    CachedRequest req = api.allocForExtend(r.rid(), m, loaded);
    if (req == null) {
      return false;
    }
    if (data != null) {
      data.compute(req.freshPages(), prompt, prefixTokens / ps, ps); // prefill writes the KV of what it computed
    }
    api.cacheUnfinishedReq(req);
    int fromStorage = Math.min(loaded, req.prefetchedTokens());
    stats.admitted++;
    stats.promptTokens += prompt.length;
    stats.deviceHitTokens += m.deviceTokens();
    stats.storageHitTokens += fromStorage;
    stats.hostHitTokens += loaded - fromStorage;
    stats.computedTokens += prompt.length - prefixTokens;
    workload.admitted(r, m.deviceTokens(), loaded - fromStorage, fromStorage);
    running.add(new Running(r, req, s + r.decodeSteps()));
    return true;
  }

  private void finish(long s) {
    for (Iterator<Running> it = running.iterator(); it.hasNext(); ) {
      Running run = it.next();
      if (run.doneStep > s) {
        continue;
      }
      it.remove();
      stats.finished++;
      int ps = cfg.pageSize();
      int[] full = concat(run.request.prompt(), run.request.output());
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

  /** A request in the running batch: its cache state on this rank and when it finishes. */
  private record Running(Request request, CachedRequest cached, long doneStep) {}
}
