package dev.hicachesync.modelcheck.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hicachesync.collective.CollectiveException;
import dev.hicachesync.collective.LocalFabric;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.trace.ndjson.NdjsonTraceRecorder;
import dev.hicachesync.trace.TraceHeader;
import dev.hicachesync.trace.TracingProcessGroup;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The recording path end to end with real threads: two rank threads make their collectives on a {@link
 * LocalFabric} through {@link TracingProcessGroup}s into one {@link NdjsonTraceRecorder}, whose lines
 * interleave as the threads run; TLC then checks the trace. The ranks follow a script (one request, storage
 * off, post20460 at CP = 2): the values are the spec's, the results and the line order are the real run's.
 */
class RecordedThreadsTraceTest {

  static final TraceHeader HEADER = new TraceHeader(1, 2, 1, 1, "post20460", "best_effort", "write_through",
      false, List.of(1), 1, 1, 2, 1);

  /** One scripted call: site, op, the rank's local value. */
  record Call(String site, ReduceOp op, long... value) {}

  /**
   * Rank r's calls: step 0 receives request 1 and admits it; step 1 finishes it (write-through queued in the
   * same atomic step as S1's local value, so no copy can be done yet); at step 2 rank 0's copy is done, rank
   * 1's not (MIN 0: nothing popped); at step 3 both are (pop 1); then every rank is done. {@code skipS2}
   * makes the rank skip S2 of step 1, as a rank with a rank-local guard would.
   */
  static List<Call> script(int r, boolean skipS2) {
    List<Call> calls = new ArrayList<>();
    for (int step = 0; step < 4; step++) {
      calls.add(new Call("RECV", ReduceOp.MAX, step == 0 ? 1 : 0));
      calls.add(new Call("S1", ReduceOp.MIN, step == 3 || (step == 2 && r == 0) ? 1 : 0));
      if (!(skipS2 && step == 1)) {
        calls.add(new Call("S2", ReduceOp.MIN, 0));
      }
      // No S3: with storage off the spec (and SGLang) has no storage control queues to drain.
    }
    return calls;
  }

  static List<String> record(boolean rank1SkipsS2) throws Exception {
    LocalFabric fabric = new LocalFabric(Duration.ofSeconds(5));
    StringWriter sw = new StringWriter();
    NdjsonTraceRecorder rec = new NdjsonTraceRecorder(sw);
    rec.header(HEADER);
    List<Thread> threads = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      int rank = r;
      AtomicLong step = new AtomicLong();
      // RECV and the sync points share one gloo group in the simulator; separate handles keep kinds apart here.
      ProcessGroup domain = new TracingProcessGroup(fabric.group("domain", List.of(0, 1), rank), rec, "domain",
          "sched", 1, step::get);
      ProcessGroup cp = new TracingProcessGroup(fabric.group("domain", List.of(0, 1), rank), rec, "attn_cp",
          "sched", 1, step::get);
      List<Call> calls = script(rank, rank1SkipsS2 && rank == 1);
      Thread t = new Thread(() -> {
        try {
          for (Call c : calls) {
            if (c.site().equals("RECV")) {
              if (!calls.isEmpty() && c != calls.get(0)) {
                step.incrementAndGet();
              }
              domain.allReduce(c.site(), c.op(), c.value());
            } else {
              cp.allReduce(c.site(), c.op(), c.value());
            }
          }
        } catch (CollectiveException stopped) {
          // recorded as RankFailed by the wrapper
        }
      }, "rank-" + rank);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    return sw.toString().lines().toList();
  }

  @Test
  void aValueNoBehaviourCanProduceIsRejected() throws Exception {
    // The same run, but rank 0 claims its copy done at step 1's S1: the copy was queued in the step that
    // computed that value, so no behaviour of the spec posts 1 there.
    List<String> lines = new ArrayList<>(record(false));
    int i = 0;
    for (int k = 0; k < lines.size(); k++) {
      if (lines.get(k).contains("\"r\":0,\"step\":1,\"grp\":\"attn_cp\"") && lines.get(k).contains("\"S1\"")) {
        lines.set(k, lines.get(k).replace("\"val\":[0]", "\"val\":[1]"));
        i = k + 1;
      }
    }
    Validation v = TraceValidationTest.validate("threads-value", lines);
    assertEquals(Validation.Outcome.REJECTED, v.outcome(), TraceValidationTest.show(v));
    assertEquals(5, v.event().orElseThrow().number(), "line " + i + ": " + TraceValidationTest.show(v));
  }

  @Test
  void aRunOfRealThreadsIsAccepted() throws Exception {
    List<String> lines = record(false);
    assertEquals(1 + 2 * 12, lines.size()); // header + 2 ranks x 4 steps x (RECV, S1, S2)
    Validation v = TraceValidationTest.validate("threads", lines);
    assertEquals(Validation.Outcome.ACCEPTED, v.outcome(), TraceValidationTest.show(v));
  }

  @Test
  void aRankThatSkipsASyncPointIsRejectedWhereTheCallsDiffer() throws Exception {
    List<String> lines = record(true);
    Validation v = TraceValidationTest.validate("threads-skip", lines);
    assertEquals(Validation.Outcome.REJECTED, v.outcome(), TraceValidationTest.show(v));
    // RECV, S1, S2, RECV, S1 match; rank 0's S2 meets rank 1's next RECV (a mismatch both ranks record).
    assertEquals(6, v.event().orElseThrow().number(), TraceValidationTest.show(v));
    assertEquals("RankFailed", v.event().orElseThrow().kind());
  }
}
