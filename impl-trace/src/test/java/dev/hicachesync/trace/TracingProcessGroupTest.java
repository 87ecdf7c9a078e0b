package dev.hicachesync.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.hicachesync.collective.CollectiveException;
import dev.hicachesync.collective.LocalFabric;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.trace.ndjson.NdjsonTraceRecorder;
import dev.hicachesync.trace.ndjson.TraceReader;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Recording collectives by wrapping the group handles: values, results, order, and failures. */
class TracingProcessGroupTest {

  /** Runs {@code body(rank, group)} on two rank threads over one wrapped 2-member group; returns the trace. */
  static Trace twoRanks(Duration timeout, java.util.function.BiConsumer<Integer, ProcessGroup> body)
      throws Exception {
    LocalFabric fabric = new LocalFabric(timeout);
    StringWriter sw = new StringWriter();
    NdjsonTraceRecorder rec = new NdjsonTraceRecorder(sw);
    rec.header(TraceReaderTest.HEADER);
    List<Thread> threads = new ArrayList<>();
    AtomicReference<Throwable> unexpected = new AtomicReference<>();
    for (int r = 0; r < 2; r++) {
      int rank = r;
      ProcessGroup g = new TracingProcessGroup(fabric.group("attn_cp", List.of(0, 1), rank), rec, "attn_cp",
          "sched", 1, () -> 7);
      Thread t = new Thread(() -> {
        try {
          body.accept(rank, g);
        } catch (CollectiveException expectedInSomeTests) {
          // recorded as RankFailed
        } catch (Throwable e) {
          unexpected.set(e);
        }
      });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    if (unexpected.get() != null) {
      throw new AssertionError(unexpected.get());
    }
    return TraceReader.parse("t", sw.toString().lines().toList());
  }

  @Test
  void eachMemberRecordsItsValueAndTheResultAfterTheCall() throws Exception {
    Trace t = twoRanks(Duration.ofSeconds(10), (rank, g) -> {
      g.allReduce("S1", ReduceOp.MIN, new long[] {rank + 1});
      g.allReduce("S4", ReduceOp.MAX, new long[] {rank, 0});
    });
    assertEquals(4, t.events().size());
    List<CollectiveRecord> s1 = new ArrayList<>();
    for (Trace.Line l : t.events()) {
      CollectiveRecord c = (CollectiveRecord) l.record();
      assertEquals(List.of(0, 1), c.members());
      assertEquals(7, c.step());
      if (c.site().equals("S1")) {
        s1.add(c);
        assertEquals(List.of(1L), c.result());
        assertEquals(List.of((long) c.rank() + 1), c.value());
        assertEquals("MIN", c.op());
      } else {
        assertEquals(List.of(1L, 0L), c.result());
        assertEquals("MAX", c.op());
      }
    }
    assertEquals(2, s1.size());
    // A member's S4 line never precedes its own S1 line.
    for (int r = 0; r < 2; r++) {
      int rank = r;
      List<String> sites = t.events().stream().map(l -> (CollectiveRecord) l.record())
          .filter(c -> c.rank() == rank).map(CollectiveRecord::site).toList();
      assertEquals(List.of("S1", "S4"), sites);
    }
  }

  @Test
  void aMismatchIsRecordedAsAFailureOnEveryMember() throws Exception {
    Trace t = twoRanks(Duration.ofSeconds(10), (rank, g) ->
        g.allReduce(rank == 0 ? "S2" : "S3", ReduceOp.MIN, new long[] {0}));
    assertEquals(2, t.events().size());
    for (Trace.Line l : t.events()) {
      RankFailedRecord f = assertInstanceOf(RankFailedRecord.class, l.record());
      assertTrue(f.reason().startsWith("CollectiveMismatchException"), f.reason());
    }
  }
}
