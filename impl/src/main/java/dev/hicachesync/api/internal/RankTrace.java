package dev.hicachesync.api.internal;

import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.controller.CacheController;
import dev.hicachesync.sync.SyncObserver;
import dev.hicachesync.sync.SyncPoint;
import dev.hicachesync.trace.CollectiveRecord;
import dev.hicachesync.trace.Snapshot;
import dev.hicachesync.trace.TraceHeader;
import dev.hicachesync.trace.TraceRecord;
import dev.hicachesync.trace.TraceRecorder;
import java.util.Arrays;
import java.util.List;

/**
 * The API's trace instrumentation of one rank ({@link TraceInstrumentation}): what its {@code
 * TracingProcessGroup}s record goes through here, which adds what only the rank knows: the acks its sync
 * point's decision popped (on the line of the sync point's last collective, held until the decision is
 * applied: {@link #afterSync}) and its state while it waits at RECV (the snapshot {@link
 * HiCacheRank#beforeRecv} takes before the scheduler calls it).
 *
 * <p>Both still land before the rank's next collective call, the order {@code SpecEvents} relies on. Rank
 * thread only (the shared recorder takes care of the other ranks).
 */
final class RankTrace implements TraceRecorder, SyncObserver {
  private final TraceRecorder out;
  private final SyncObserver next;
  private final int lastStage;
  private final int pageSize;
  private CacheController controller;
  private Snapshot recvSnapshot;
  private CollectiveRecord held;
  private long[] poppedBefore;

  /**
   * @param out the run's recorder
   * @param next the observer the controller had (the divergence recorder), told first
   * @param lastStage how many groups a scheduler sync point reduces over on this rank (singletons skipped)
   */
  RankTrace(TraceRecorder out, SyncObserver next, int lastStage, int pageSize) {
    this(out, next, lastStage, pageSize, true);
  }

  /**
   * @param s5InTokens whether S5 reduces tokens (converted to pages here); {@code unified}'s completion sync
   *     reduces pages already
   */
  RankTrace(TraceRecorder out, SyncObserver next, int lastStage, int pageSize, boolean s5InTokens) {
    this.out = out;
    this.next = next;
    this.lastStage = lastStage;
    this.pageSize = s5InTokens ? pageSize : 1;
  }

  void attach(CacheController c) {
    this.controller = c;
  }

  /**
   * The scheduler's channel from the upstream pipeline stage ({@code inner}), recording each decision it delivers
   * as a one-member collective of group kind {@code pipe} on channel {@code sched}: the decision as both value and
   * result (the layer's follower branch posts nothing), and at a pop site what the decision popped (held until
   * it is applied, as a deciding rank's last stage is). Messages of other sync points pass unrecorded.
   *
   * @param unified whether the version is unified (its S5, the completion sync, is no scheduler sync point)
   */
  dev.hicachesync.collective.PipeChannel tracingFromPrev(dev.hicachesync.collective.PipeChannel inner,
      boolean unified, java.util.function.LongSupplier step) {
    RankTrace self = this;
    return new dev.hicachesync.collective.PipeChannel() {
      @Override
      public int fromRank() {
        return inner.fromRank();
      }

      @Override
      public int toRank() {
        return inner.toRank();
      }

      @Override
      public void send(long[] values) {
        inner.send(values);
      }

      @Override
      public long[] recv() {
        return recorded(inner.recv());
      }

      @Override
      public long[] poll() {
        long[] m = inner.poll();
        return m == null ? null : recorded(m);
      }

      private long[] recorded(long[] msg) {
        if (msg.length >= 1 && msg[0] >= 0 && msg[0] < SyncPoint.values().length) {
          SyncPoint p = SyncPoint.values()[(int) msg[0]];
          if (forwarded(p, unified)) {
            long[] decision = Arrays.copyOfRange(msg, 1, msg.length);
            String op = p == SyncPoint.S4 || p == SyncPoint.S6 ? "MAX" : "MIN"; // HiCacheSync's OpOf
            self.collective(inner.toRank(), step.getAsLong(), "pipe", "sched", List.of(inner.toRank()), p.name(), 1,
                op, decision, decision, null, null);
          }
        }
        return msg;
      }
    };
  }

  /** The scheduler sync points a later stage takes from upstream (unified's S5 is its completion thread's). */
  private static boolean forwarded(SyncPoint p, boolean unified) {
    return switch (p) {
      case S1, S2, S3, S123, S4, S6 -> true;
      case S5 -> !unified;
      default -> false;
    };
  }
  /** The state this rank waits in at the RECV it is about to call. */
  void beforeRecv(Snapshot s) {
    recvSnapshot = s;
  }

  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public void header(TraceHeader header) {
    throw new IllegalStateException("the run writes the header once, not each rank");
  }

  @Override
  public void record(TraceRecord record) {
    flush();
    out.record(record);
  }

  @Override
  public void collective(int rank, long step, String group, String channel, List<Integer> members,
      String site, int stage, String op, long[] value, long[] result, long[] popped, Snapshot snapshot) {
    flush();
    if (site.equals("S5")) { // the simulator reduces tokens, the spec pages (SGLang: completed_tokens)
      value = Arrays.stream(value).map(v -> v / pageSize).toArray();
      result = Arrays.stream(result).map(v -> v / pageSize).toArray();
    }
    CollectiveRecord c = new CollectiveRecord(rank, step, group, channel, members, site, stage, op,
        boxed(value), boxed(result), null, site.equals("RECV") ? recvSnapshot : null);
    if (site.equals("RECV")) {
      recvSnapshot = null;
    }
    if (channel.equals("sched") && (stage == lastStage || group.equals("pipe")) && pops(site) > 0
        && controller != null) {
      held = c;
      poppedBefore = controller.view().poppedCounts();
      return;
    }
    out.record(c);
  }

  @Override
  public void afterSync(SyncPoint point) {
    next.afterSync(point);
    if (held != null && held.site().equals(point.name())) {
      long[] now = controller.view().poppedCounts();
      long[] d = new long[5];
      for (int i = 0; i < 5; i++) {
        d[i] = now[i] - poppedBefore[i];
      }
      long[] pop = switch (point) {
        case S1 -> new long[] {d[0]};
        case S2 -> new long[] {d[1]};
        case S3 -> new long[] {d[2], d[3], d[4]};
        default -> d; // S123: [w, l, rv, ba, rl], the order of poppedCounts
      };
      CollectiveRecord h = held;
      held = null;
      out.record(new CollectiveRecord(h.rank(), h.step(), h.group(), h.channel(), h.members(), h.site(),
          h.stage(), h.op(), h.value(), h.result(), boxed(pop), h.snapshot()));
    }
  }

  @Override
  public void onReduce(SyncPoint point, long[] local, long[] result) {
    next.onReduce(point, local, result);
  }

  /** Writes a held line without its pops (its decision never came: the rank failed first). */
  void flush() {
    if (held != null) {
      out.record(held);
      held = null;
    }
  }

  private static int pops(String site) {
    return switch (site) {
      case "S1", "S2" -> 1;
      case "S3" -> 3;
      case "S123" -> 5;
      default -> 0;
    };
  }

  private static List<Long> boxed(long[] v) {
    return Arrays.stream(v).boxed().toList();
  }
}
