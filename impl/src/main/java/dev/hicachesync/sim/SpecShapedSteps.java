package dev.hicachesync.sim;

import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.controller.CacheController;
import dev.hicachesync.sync.SyncPoint;
import dev.hicachesync.trace.Snapshot;
import dev.hicachesync.tree.MatchResult;
import dev.hicachesync.tree.TreeNode;
import java.util.List;

/**
 * One rank's scheduler step in a {@link SpecShaped} run, in the order of {@code HiCacheSync.tla}'s
 * {@code Enter}/{@code Decide} chain: RECV, finish the running request (unlock, write-through), deliver the
 * received request, the event checks ({@code checkHicacheEvents}: S1, S2 or S123), admission (device hit,
 * load-back, or a fresh node). The controller is the simulator's; only the loop around it is the spec's.
 * The sync points go through the public {@link HiCacheRank} ({@code engine.api}), as the simulator's own loop
 * does; the spec's own request lifecycle (insert at admission without the write policy, write-through when
 * the request finishes, a device hit locked without an insert) uses the controller's lower-level calls, which
 * the public API does not offer (its {@code cacheUnfinishedReq} applies the write policy at insert).
 *
 * <p>Rank thread only. A divergence the domain leader finds is reported but does not stop the run: RECV
 * carries the spec's request index only, so the ranks run every step and the trace shows where they differ.
 */
final class SpecShapedSteps {
  private final RankEngine engine;
  private final Simulator sim;
  private final SpecShaped shape;
  private final ProcessGroup recv;
  private final ProcessGroup harness;
  private final RankTrace trace;
  private final DomainChecker checker;
  private final int pageSize;
  private final int nr;
  /** L3 storage on: prefetch issue at Deliver, S7 at the step boundary, S4/S5 before admission. */
  private final boolean storage;
  /** The spec's reqIdx, waiting, running (request indexes from 1, 0 for none). */
  private int reqIdx;
  private int waiting;
  private int running;
  private TreeNode runningNode;

  /**
   * @param recv the domain group RECV reduces over (traced when recording)
   * @param harness the same group untraced, for the run's own stop agreement
   */
  SpecShapedSteps(RankEngine engine, Simulator sim, SpecShaped shape, ProcessGroup recv, ProcessGroup harness,
      RankTrace trace, DomainChecker checker, int pageSize) {
    this.engine = engine;
    this.sim = sim;
    this.shape = shape;
    this.recv = recv;
    this.harness = harness;
    this.trace = trace;
    this.checker = checker;
    this.pageSize = pageSize;
    this.nr = shape.requests().size();
    this.storage = sim.config().storage() != StorageMode.OFF;
  }

  boolean step(long s) {
    CacheController c = engine.controller;
    HiCacheRank api = engine.api;
    engine.recorder.begin(s);
    engine.env.beginStep(s);
    engine.where = "step " + s + " RECV";
    if (checker != null && s >= 2) {
      Divergence d = checker.check(s - 2);
      if (d != null) {
        sim.report(d);
      }
    }
    if (storage) {
      prefetchThread(c, api);
    }
    if (allDone(c)) {
      return false;
    }
    long[] mine = {waiting == 0 && reqIdx < nr ? reqIdx + 1 : 0};
    if (trace != null) {
      int[] q = c.queueSizes();
      trace.beforeRecv(new Snapshot(c.freeDevicePages(), c.freeHostPages(), q[0], q[1], q[2], q[4], waiting,
          running));
    }
    long[] got;
    if (recv.size() > 1) {
      got = recv.allReduce(SyncPoint.RECV.name(), ReduceOp.MAX, mine);
      engine.stats.recvCollectives++;
    } else {
      got = mine.clone();
      if (trace != null) { // the spec posts RECV on a one-rank domain too
        trace.collective(engine.rank, s, "domain", "sched", List.of(engine.rank), SyncPoint.RECV.name(), 1, "MAX",
            mine, got, null, null);
      }
    }
    engine.recorder.afterSync(SyncPoint.RECV);
    if (running != 0) { // Finish: cache_finished_req
      c.unlock(runningNode);
      c.writeThrough(runningNode);
      running = 0;
      runningNode = null;
      engine.stats.finished++;
    }
    if (got[0] != 0) { // Deliver
      reqIdx = (int) got[0];
      waiting = reqIdx;
      engine.stats.arrived++;
      if (storage) { // prefetch_from_storage: a key the tree misses entirely
        int[] prompt = shape.prompt(shape.requests().get(waiting - 1), pageSize);
        api.prefetchFromStorage(rid(waiting), api.matchPrefix(prompt));
      }
    }
    engine.where = "step " + s + " events";
    api.checkHicacheEvents();
    engine.where = "step " + s + " admission";
    if (waiting != 0 && prefetchDone(c, api)) {
      admit(c, api);
    }
    engine.recorder.endStep();
    engine.stats.stepsRun = s + 1;
    return true;
  }

  /**
   * The prefetch thread's pass (S7 for every queued operation), run where the spec runs it: at the step
   * boundary, before RECV (the spec's EnvWindow; the simulator's own loop runs it after RECV). Its outcome is
   * then made to arrive at once: the spec has no storage-query latency, the simulator's deposit does.
   */
  private void prefetchThread(CacheController c, HiCacheRank api) {
    engine.where = "step " + engine.stats.stepsRun + " prefetch thread";
    api.runPrefetchThread();
    engine.env.awaitCondition(c::storageQueuesSettled);
  }

  /**
   * The spec's admission checks of the waiting request's ongoing prefetch (S4 unless best_effort, then S5):
   * false while it keeps waiting. Once S5 terminated it, the slots it hands back wait for this rank's reader
   * to stop (B7's fix); the spec lands a page read atomically, so the run waits for that here.
   */
  private boolean prefetchDone(CacheController c, HiCacheRank api) {
    String rid = rid(waiting);
    if (!storage || !c.hasOngoingPrefetch(rid)) {
      return true;
    }
    if (!api.checkPrefetchProgress(rid)) {
      return false;
    }
    c.takePrefetchedTokens(rid);
    engine.env.awaitCondition(c::storageQueuesSettled);
    return true;
  }

  private static String rid(int request) {
    return "req" + request;
  }

  /**
   * Whether every rank of the domain has nothing left to do (the spec's {@code LocalDone}): then the spec
   * only stutters ({@code Terminated}) and posts no further RECV, so the run stops here. The ranks agree on
   * it through one MIN on the untraced domain group: a harness collective, like the stop flag of the
   * simulator's own RECV, and no part of the protocol or the trace.
   */
  private boolean allDone(CacheController c) {
    int[] q = c.queueSizes();
    boolean done = reqIdx == nr && waiting == 0 && running == 0 && c.ongoingPrefetches().isEmpty();
    for (int n : q) {
      done &= n == 0;
    }
    long[] v = {done ? 1 : 0};
    if (harness.size() > 1) {
      v = harness.allReduce("DONE", ReduceOp.MIN, v);
    }
    return v[0] == 1;
  }

  /** The spec's Admit: a device hit locks, a host hit loads back, a miss computes a fresh node. */
  private void admit(CacheController c, HiCacheRank api) {
    int[] prompt = shape.prompt(shape.requests().get(waiting - 1), pageSize);
    MatchResult m = c.matchPrefix(prompt);
    TreeNode node;
    if (m.deviceTokens() == prompt.length) {
      node = m.lastDeviceNode();
      engine.stats.deviceHitTokens += prompt.length;
    } else if (m.hostTokens() > 0) {
      if (api.initLoadBack(api.matchPrefix(prompt)) == 0) {
        return; // no device memory even after eviction: stays waiting
      }
      node = m.lastNode();
      engine.stats.hostHitTokens += m.hostTokens();
    } else {
      int[] fresh = c.allocateDevice(prompt.length / pageSize);
      if (fresh == null) {
        return;
      }
      if (engine.data != null) {
        engine.data.compute(fresh, prompt, 0, pageSize);
      }
      node = c.insertWithoutBackup(prompt, fresh).lastNode();
      engine.stats.computedTokens += prompt.length;
    }
    c.lock(node);
    engine.stats.admitted++;
    engine.stats.promptTokens += prompt.length;
    running = waiting;
    runningNode = node;
    waiting = 0;
  }
}
