package dev.hicachesync.api.internal;

import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.controller.CacheController;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.sync.SyncGroups;
import dev.hicachesync.sync.SyncObserver;
import dev.hicachesync.trace.Snapshot;
import dev.hicachesync.trace.TraceRecorder;
import dev.hicachesync.trace.TracingProcessGroup;
import java.util.function.LongSupplier;

/**
 * <b>Internal</b> (not part of the API an engine uses): a rank's trace instrumentation, the API's own: the rank's sync groups wrapped so that each collective is
 * recorded as the spec names it ({@link TracingProcessGroup}), and the observer that adds each sync point's
 * popped acks and the RECV snapshot ({@link HiCacheRank#beforeRecv}). An engine turns it on with {@link
 * HiCacheRankBuilder#trace}; the simulator, which builds its ranks' controllers itself, through {@link
 * Seam#instrument}. Off costs nothing: {@link #of} returns null for a recorder that records nothing, and no
 * handle is wrapped.
 *
 * <p>Group naming: attn_cp is stage 1, attn_tp stage 2 after it (post20460) or 1 alone; merged's one CP×TP
 * collective is the spec's single non-singleton group (attn_cp when TP = 1, attn_tp when CP = 1), or, on a
 * full grid, logged as one collective of the domain, which {@code validate-trace} splits into the spec's
 * attn_cp and attn_tp steps. The scheduler's groups record on channel {@code sched}, the prefetch thread's
 * (S7) on {@code pf}; the pp group and the pipeline channels are not wrapped. A later pipeline stage of a
 * forwarding version makes no scheduler collective: it takes each decision its upstream stage forwards, and logs
 * it as a one-member collective of group kind {@code pipe} (its local value, the decision it received and, at a
 * pop site, what it popped).
 */
public final class TraceInstrumentation {
  private final RankTrace trace;
  private final SyncGroups sched;
  private final SyncGroups prefetch;
  private final LongSupplier step;

  private TraceInstrumentation(RankTrace trace, SyncGroups sched, SyncGroups prefetch, LongSupplier step) {
    this.trace = trace;
    this.sched = sched;
    this.prefetch = prefetch;
    this.step = step;
  }

  /**
   * Instruments a rank whose scheduler and prefetch groups are {@code sched} and {@code prefetch}; null
   * when {@code out} records nothing.
   *
   * @param next the observer the controller would have had otherwise (told first)
   * @param pageSize tokens per page (S5 is logged in pages, the spec's unit)
   * @param step the rank's current scheduler step, for each line
   */
  public static TraceInstrumentation of(ProtocolVersion v, SyncGroups sched, SyncGroups prefetch, TraceRecorder out,
      SyncObserver next, int pageSize, LongSupplier step) {
    if (!out.enabled()) {
      return null;
    }
    RankTrace t = new RankTrace(out, next, stages(v, sched.attnCp().size(), sched.attnTp().size()), pageSize,
        v != ProtocolVersion.UNIFIED); // unified's completion sync (S5) reduces pages, the others' S5 tokens
    SyncGroups s = wrap(v, sched, t, "sched", step);
    if (v != ProtocolVersion.PRE20460 && !sched.decides()) { // a later stage: its decisions arrive from upstream
      s = new SyncGroups(s.attnTp(), s.attnCp(), s.cpTp(), s.pp(),
          t.tracingFromPrev(sched.fromPrev(), v == ProtocolVersion.UNIFIED, step), s.toNext());
    }
    return new TraceInstrumentation(t, s, wrap(v, prefetch, t, "pf", step), step);
  }

  /** The scheduler's groups, recording. */
  public SyncGroups sched() {
    return sched;
  }

  /** The prefetch thread's groups, recording on channel {@code pf}. */
  public SyncGroups prefetch() {
    return prefetch;
  }

  /**
   * {@code completion} (the completion-sync thread's groups, version {@code unified}) recording on channel
   * {@code pf}, as the spec has one background channel.
   */
  public SyncGroups completion(ProtocolVersion v, SyncGroups completion) {
    return wrap(v, completion, trace, "pf", step);
  }

  /** The observer to build the rank's controller with. */
  public SyncObserver observer() {
    return trace;
  }

  /**
   * The rank's recorder: lines the rank's scheduler records itself (its RECV group wrapped in a {@link
   * TracingProcessGroup}, a one-rank RECV) go through it, so that they keep their place among the sync
   * points' lines.
   */
  public TraceRecorder recorder() {
    return trace;
  }

  /** {@code recv} recording each call as a RECV line of the sync domain, on the scheduler's channel. */
  public ProcessGroup recv(ProcessGroup recv) {
    return new TracingProcessGroup(recv, trace, "domain", "sched", 1, step);
  }

  /** Lets the observer read {@code c}'s popped counts. */
  public void attach(CacheController c) {
    trace.attach(c);
  }

  /** The state the rank waits in at the RECV it is about to call. */
  public void beforeRecv(Snapshot s) {
    trace.beforeRecv(s);
  }

  /** How many groups a scheduler sync point reduces over (singletons skipped), as the spec's SyncGroups. */
  static int stages(ProtocolVersion v, int cpSize, int tpSize) {
    return switch (v) {
      case PRE20460 -> tpSize > 1 ? 1 : 0;
      case POST20460 -> (cpSize > 1 ? 1 : 0) + (tpSize > 1 ? 1 : 0);
      default -> cpSize * tpSize > 1 ? 1 : 0; // merged and unified: one collective over CP x TP
    };
  }

  private static SyncGroups wrap(ProtocolVersion v, SyncGroups g, RankTrace trace, String ch, LongSupplier step) {
    int tpStage = v == ProtocolVersion.POST20460 && g.attnCp().size() > 1 ? 2 : 1;
    String cpTpKind = g.attnCp().size() > 1 && g.attnTp().size() > 1 ? "domain"
        : g.attnCp().size() > 1 ? "attn_cp" : "attn_tp";
    ProcessGroup tp = new TracingProcessGroup(g.attnTp(), trace, "attn_tp", ch, tpStage, step);
    ProcessGroup cp = new TracingProcessGroup(g.attnCp(), trace, "attn_cp", ch, 1, step);
    ProcessGroup cpTp = new TracingProcessGroup(g.cpTp(), trace, cpTpKind, ch, 1, step);
    return new SyncGroups(tp, cp, cpTp, g.pp(), g.fromPrev(), g.toNext());
  }
}
