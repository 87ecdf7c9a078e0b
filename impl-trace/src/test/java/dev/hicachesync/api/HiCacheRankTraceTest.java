package dev.hicachesync.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.api.internal.TraceInstrumentation;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.sync.SyncGroups;
import dev.hicachesync.sync.SyncObserver;
import dev.hicachesync.trace.CollectiveRecord;
import dev.hicachesync.trace.ndjson.NdjsonTraceRecorder;
import dev.hicachesync.trace.Snapshot;
import dev.hicachesync.trace.Trace;
import dev.hicachesync.trace.TraceHeader;
import dev.hicachesync.trace.ndjson.TraceReader;
import dev.hicachesync.trace.TraceRecorder;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The API's own trace instrumentation ({@link HiCacheRankBuilder#trace}), as an engine uses it: two ranks
 * (merged, CP 2) each write a request through and consume its ack; the trace holds each rank's RECV with the
 * snapshot {@link HiCacheRank#beforeRecv} took, and each S123 with the acks its decision popped. Off, nothing
 * is wrapped.
 */
class HiCacheRankTraceTest {

  @Test
  void anEnginesRanksRecordTheirSyncPointsThroughTheApi() throws Exception {
    HiCacheConfig cfg = HiCacheConfig.builder().pageSize(16).devicePages(4).hicacheRatio(2)
        .parallelism(1, 2, 1, 1).build();
    InJvmCluster cluster = InJvmCluster.of(cfg, Duration.ofSeconds(20));
    StringWriter out = new StringWriter();
    try (NdjsonTraceRecorder rec = new NdjsonTraceRecorder(out)) {
      rec.header(new TraceHeader(1, 2, 1, 1, "merged", "timeout", "write_through", false, List.of(1), 1, 4, 8, 1));
      List<CompletableFuture<Void>> ranks = List.of(rank(cfg, cluster, 0, rec), rank(cfg, cluster, 1, rec));
      for (CompletableFuture<Void> f : ranks) {
        f.get(60, TimeUnit.SECONDS);
      }
    }
    Trace t = TraceReader.parse("api", out.toString().lines().toList());
    for (int r = 0; r < 2; r++) {
      int rank = r;
      List<CollectiveRecord> mine = t.events().stream().map(Trace.Line::record)
          .filter(e -> e instanceof CollectiveRecord c && c.rank() == rank).map(e -> (CollectiveRecord) e).toList();
      assertEquals(List.of("RECV", "S123", "RECV", "S123", "RECV", "S123"),
          mine.stream().map(CollectiveRecord::site).toList(), "rank " + r);
      CollectiveRecord recv = mine.get(0);
      assertEquals("domain", recv.group());
      assertEquals(new Snapshot(4, 8, 0, 0, 0, 0, 1, 0), counts(recv.snapshot()), "the snapshot beforeRecv took");
      assertEquals(new Snapshot(3, 7, 1, 0, 0, 0, 0, 1), counts(mine.get(2).snapshot()), "one write-through pending");
      assertEquals(0, recv.snapshot().backupAcks(), "storage off: no backup ack queued");
      assertTrue(recv.snapshot().digest().matches("[0-9a-f]+(:[0-9a-f]+){3}"), recv.snapshot().digest());
      assertEquals("attn_cp", mine.get(1).group());
      assertEquals(List.of(0L, 0L, 0L, 0L, 0L), mine.get(1).popped());
      long popped = mine.stream().filter(c -> c.site().equals("S123")).mapToLong(c -> c.popped().get(0)).sum();
      assertEquals(1, popped, "the write ack is popped at one S123, on the line of its decision: " + mine);
    }
  }

  /** {@code s} without its backup-ack count and digest (checked on their own). */
  private static Snapshot counts(Snapshot s) {
    return new Snapshot(s.deviceFree(), s.hostFree(), s.writeAcks(), s.loadAcks(), s.revokes(), s.releases(),
        s.waiting(), s.running());
  }

  /** One rank's scheduler: three steps of RECV then the event check; a request runs in the first. */
  private static CompletableFuture<Void> rank(HiCacheConfig cfg, InJvmCluster cluster, int r, TraceRecorder rec) {
    long[] step = {0};
    RankGroups g = cluster.groups(r);
    HiCacheRank rank = HiCacheRank.builder(cfg.forRank(r)).groups(g).trace(rec, () -> step[0]).build();
    ProcessGroup recv = rank.traceRecv(g.cpTp());
    return CompletableFuture.runAsync(() -> {
      int[] prompt = new int[16];
      java.util.Arrays.fill(prompt, 3);
      for (step[0] = 0; step[0] < 3; step[0]++) {
        rank.runPrefetchThread(); // no prefetch issued: no S7, nothing recorded
        rank.beforeRecv(step[0] == 0 ? 1 : 0, step[0] == 1 ? 1 : 0);
        recv.allReduce("RECV", ReduceOp.MAX, new long[] {step[0] == 0 ? 1 : 0});
        rank.checkHicacheEvents();
        if (step[0] == 0) {
          PrefixMatch m = rank.matchPrefix(prompt);
          CachedRequest req = rank.allocForExtend("req1", m, rank.initLoadBack(m));
          rank.cacheUnfinishedReq(req); // write-through starts at insert
          rank.cacheFinishedReq(req);
        }
      }
    });
  }

  @Test
  void offNothingIsWrapped() {
    HiCacheConfig cfg = HiCacheConfig.builder().pageSize(16).devicePages(4).parallelism(1, 2, 1, 1).build();
    InJvmCluster cluster = InJvmCluster.of(cfg, Duration.ofSeconds(1));
    RankGroups g = cluster.groups(0);
    HiCacheRank rank = HiCacheRank.builder(cfg).groups(g).build();
    assertSame(g.cpTp(), rank.traceRecv(g.cpTp()));
    SyncGroups s = new SyncGroups(g.attnTp(), g.attnCp(), g.cpTp(), null, null, null);
    assertNull(TraceInstrumentation.of(ProtocolVersion.MERGED, s, s, TraceRecorder.NONE, SyncObserver.NONE, 16,
        () -> 0));
    TraceInstrumentation on = TraceInstrumentation.of(ProtocolVersion.MERGED, s, s, new NdjsonTraceRecorder(
        new StringWriter()), SyncObserver.NONE, 16, () -> 0);
    assertTrue(on.sched().cpTp() != g.cpTp() && on.prefetch().attnCp() != g.attnCp(), "on, the handles record");
  }
}
