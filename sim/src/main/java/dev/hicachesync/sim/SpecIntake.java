package dev.hicachesync.sim;

import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.controller.CacheController;
import dev.hicachesync.sim.spec.SpecShaped;
import dev.hicachesync.sim.workload.Request;
import dev.hicachesync.sync.SyncPoint;
import dev.hicachesync.trace.TraceRecorder;
import java.util.List;

/**
 * The spec's RECV ({@code HiCacheSync.tla}): every rank posts {@code [next request index, or 0 while its
 * waiting queue is full]} (it holds {@code SpecShaped.waitingCap} requests) and the domain takes the MAX; a
 * non-zero result delivers that request of the fixed stream ({@link SpecShaped}). Under version {@code unified} ({@code HiCacheUnified.tla}'s {@code RecvComplete}) a
 * rank posts the next index only while none waits and no prefetch of it is in flight, and the domain takes
 * the MIN: the request comes once every rank is ready. RECV is logged on a one-rank domain too, since the spec always posts it. The run
 * stops when every rank is {@code LocalDone}, agreed by one MIN on the untraced domain group: a harness
 * collective (the spec then only stutters), no part of the protocol or the trace.
 */
final class SpecIntake implements Intake {
  private final RankEngine engine;
  private final SpecShaped shape;
  private final ProcessGroup recv;
  private final ProcessGroup harness;
  /** The rank's trace recorder (the API's instrumentation), or null when nothing is recorded. */
  private final TraceRecorder trace;
  private final int pageSize;
  /** The domain's checker where it compares each step at the next RECV, else null. */
  private final DomainChecker checker;
  /** Version {@code unified}: RECV is {@code HiCacheUnified.tla}'s (see {@link #receive}). */
  private final boolean unified;
  /** The spec's reqIdx: the last request index delivered, from 1 (0: none yet). */
  private int reqIdx;

  /**
   * @param recv the domain group RECV reduces over (traced when recording)
   * @param harness the same group untraced, for the stop agreement
   * @param trace where a one-rank RECV is logged, or null when nothing is recorded
   * @param checker the domain's checker, to compare each step at the next RECV ({@code
   *     Timing.comparesStepAtNextRecv}), or null
   */
  SpecIntake(RankEngine engine, SpecShaped shape, ProcessGroup recv, ProcessGroup harness, TraceRecorder trace,
      int pageSize, DomainChecker checker) {
    this.engine = engine;
    this.shape = shape;
    this.recv = recv;
    this.harness = harness;
    this.trace = trace;
    this.pageSize = pageSize;
    this.checker = checker;
    this.unified = engine.controller().view().version() == dev.hicachesync.sync.ProtocolVersion.UNIFIED;
  }

  @Override
  public List<Request> receive(long s, boolean stop) {
    CacheController c = engine.controller();
    if (allDone(c)) {
      return null;
    }
    int waiting = index(engine.firstWaiting());
    // unified: the next request only once no prefetch is in flight on any rank (HiCacheUnified's RecvComplete),
    // hence MIN: every rank must be ready
    boolean ready = engine.waitingCount() < shape.waitingCap() && reqIdx < shape.requests().size() && (!unified || c.view().prefetchesSettled());
    long[] mine = {ready ? reqIdx + 1 : 0};
    ReduceOp op = unified ? ReduceOp.MIN : ReduceOp.MAX;
    engine.api().beforeRecv(waiting, index(engine.firstRunning())); // the RECV line's snapshot, when traced
    long[] got;
    if (recv.size() > 1) {
      got = recv.allReduce(SyncPoint.RECV.name(), op, mine);
      engine.stats().collectiveReceived();
    } else {
      got = mine.clone();
      if (trace != null) {
        trace.collective(engine.rank(), s, "domain", "sched", List.of(engine.rank()), SyncPoint.RECV.name(), 1,
            op.name(), mine, got, null, null);
      }
    }
    engine.recorder().afterSync(SyncPoint.RECV);
    if (checker != null && s >= 1) { // every member finished step s - 1 when RECV s completed
      Divergence d = checker.check(s - 1);
      if (d != null) {
        engine.sim().report(d);
      }
    }
    if (got[0] == 0) {
      return List.of();
    }
    reqIdx = (int) got[0];
    int[] prompt = shape.prompt(shape.requests().get(reqIdx - 1), pageSize);
    // Runs for one step: it finishes right after the next RECV (LoopShape.spec puts FINISH there), or at the
    // end of the step that admits it (LoopShape.specInStep: FINISH last).
    // An aborted one is aborted one step after it arrived if it still waits then (the spec's AbortArrives picks
    // a request that waits at a step boundary; its abort is processed after the next RECV).
    long abortStep = shape.aborted().contains(reqIdx) ? s + 1 : -1;
    return List.of(new Request(rid(reqIdx), prompt, new int[0], shape.finishInStep() ? 0 : 1, 0, abortStep));
  }

  /** The spec's {@code LocalDone} on every rank of the domain (see the class javadoc). */
  private boolean allDone(CacheController c) {
    boolean done = reqIdx == shape.requests().size() && engine.firstWaiting() == null
        && engine.firstRunning() == null && c.view().ongoingPrefetches().isEmpty() && (!unified || c.view().prefetchesSettled())
        && !engine.attachPending(); // an attach request still to be retried keeps the scheduler stepping
    for (int n : c.view().queueSizes()) {
      done &= n == 0;
    }
    long[] v = {done ? 1 : 0};
    if (harness.size() > 1) {
      v = harness.allReduce("DONE", ReduceOp.MIN, v);
    }
    return v[0] == 1;
  }

  private static String rid(int request) {
    return "req" + request;
  }

  /** The spec's request index of {@code r} (from 1), or 0 for none. */
  private static int index(Request r) {
    return r == null ? 0 : Integer.parseInt(r.rid().substring(3));
  }
}
