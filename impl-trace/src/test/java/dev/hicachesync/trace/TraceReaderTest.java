package dev.hicachesync.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.hicachesync.trace.ndjson.NdjsonTraceRecorder;
import dev.hicachesync.trace.ndjson.TraceReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The NDJSON format: writing and reading back, the recorder that is off, and strict reading. */
class TraceReaderTest {

  static final TraceHeader HEADER = new TraceHeader(1, 2, 1, 1, "merged", "timeout", "write_through", true,
      List.of(1, 2, 1), 1, 1, 2, 1);
  static final String HEAD = NdjsonTraceRecorder.line(HEADER);
  static final String S123 = "{\"ev\":\"CollectiveCompletes\",\"r\":1,\"step\":3,\"grp\":\"attn_cp\",\"ch\":\"sched\","
      + "\"m\":[0,1],\"site\":\"S123\",\"stage\":1,\"op\":\"MIN\",\"val\":[1,0,0,0,0],\"res\":[0,0,0,0,0],"
      + "\"pop\":[0,0,0,0,0]}";

  @Test
  void writtenTraceReadsBackEqual() throws Exception {
    StringWriter sw = new StringWriter();
    List<TraceRecord> written = new ArrayList<>();
    try (NdjsonTraceRecorder rec = new NdjsonTraceRecorder(sw)) {
      rec.header(HEADER);
      rec.collective(0, 0, "domain", "sched", List.of(0, 1), "RECV", 1, "MAX", new long[] {1}, new long[] {1},
          null, new Snapshot(1, 2, 0, 0, 0, 0, 1, 0));
      rec.collective(1, 0, "attn_cp", "sched", List.of(0, 1), "S123", 1, "MIN", new long[] {1, 0, 0, 0, 0},
          new long[] {0, 0, 0, 0, 0}, new long[] {0, 0, 0, 0, 0}, null);
      rec.failed(1, 4, "CollectiveMatching: rank 0 called S2, rank 1 called S3");
    }
    Trace t = TraceReader.parse("t", sw.toString().lines().toList());
    assertEquals(HEADER, t.header());
    assertEquals(3, t.events().size());
    assertEquals(2, t.events().get(0).number());
    CollectiveRecord recv = (CollectiveRecord) t.events().get(0).record();
    assertEquals(new Snapshot(1, 2, 0, 0, 0, 0, 1, 0), recv.snapshot());
    assertEquals(null, recv.popped());
    CollectiveRecord s123 = (CollectiveRecord) t.events().get(1).record();
    assertEquals(List.of(1L, 0L, 0L, 0L, 0L), s123.value());
    assertEquals(List.of(0L, 0L, 0L, 0L, 0L), s123.popped());
    assertEquals(new RankFailedRecord(1, 4, "CollectiveMatching: rank 0 called S2, rank 1 called S3"),
        t.events().get(2).record());
  }

  @Test
  void recorderThatIsOffDoesNothing() {
    TraceRecorder none = TraceRecorder.NONE;
    assertFalse(none.enabled());
    // no header, no exception, nothing built: returns at once
    none.collective(0, 0, "bogus", "bogus", List.of(), "bogus", 0, "bogus", new long[0], new long[1], null, null);
    none.failed(0, 0, "x");
  }

  @Test
  void recorderWantsTheHeaderFirstAndOnce() {
    NdjsonTraceRecorder rec = new NdjsonTraceRecorder(new StringWriter());
    assertThrows(IllegalStateException.class, () -> rec.failed(0, 0, "x"));
    rec.header(HEADER);
    assertThrows(IllegalStateException.class, () -> rec.header(HEADER));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "not JSON             | 2 | {\"ev\":                                              | not JSON",
      "blank line           | 2 | ' '                                                    | blank line",
      "not an object        | 2 | [1,2]                                                  | not a JSON object",
      "unknown event        | 2 | {\"ev\":\"Teleport\",\"r\":0,\"step\":0}               | unknown event 'Teleport'",
      "missing field        | 2 | " + "{\"ev\":\"RankFailed\",\"r\":0,\"step\":0}        | missing field 'reason'",
      "unknown field        | 2 | {\"ev\":\"RankFailed\",\"r\":0,\"step\":0,\"reason\":\"x\",\"why\":1} | unknown field 'why'",
      "rank out of range    | 2 | {\"ev\":\"RankFailed\",\"r\":2,\"step\":0,\"reason\":\"x\"} | field 'r' = 2",
      "step not an integer  | 2 | {\"ev\":\"RankFailed\",\"r\":0,\"step\":1.5,\"reason\":\"x\"} | field 'step' must be an integer",
  })
  void malformedLineIsOneMessageNamingTheLine(String what, int line, String text, String expected) {
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> TraceReader.parse("f.ndjson", List.of(HEAD, text.equals(" ") ? "" : text)));
    assertEquals(line, e.line());
    assertTrue(e.getMessage().startsWith("f.ndjson:" + line + ": "), e.getMessage());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "missing res        | \"res\":[0,0,0,0,0],                  | ''                          | missing field 'res'",
      "unknown group      | \"grp\":\"attn_cp\"                   | \"grp\":\"world\"           | field 'grp' 'world'",
      "unknown site       | \"site\":\"S123\"                     | \"site\":\"S9\"             | field 'site' 'S9'",
      "rank not a member  | \"m\":[0,1]                           | \"m\":[0]                   | does not contain the logging rank 1",
      "members unsorted   | \"m\":[0,1]                           | \"m\":[1,0]                 | strictly ascending",
      "result size        | \"res\":[0,0,0,0,0]                   | \"res\":[0]                 | field 'res' has 1 elements",
      "value not integers | \"val\":[1,0,0,0,0]                   | \"val\":[\"1\"]             | field 'val' must hold integers",
      "stage zero         | \"stage\":1                           | \"stage\":0                 | field 'stage' must be >= 1",
  })
  void badCollectiveFields(String what, String from, String to, String expected) {
    String line = S123.replace(from, to);
    assertTrue(!line.equals(S123), "the edit applies");
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> TraceReader.parse("f.ndjson", List.of(HEAD, S123, line)));
    assertEquals(3, e.line());
    assertTrue(e.getMessage().startsWith("f.ndjson:3: ") && e.getMessage().contains(expected), e.getMessage());
  }

  @Test
  void headerProblems() {
    assertEquals(1, assertThrows(TraceFormatException.class, () -> TraceReader.parse("f", List.of())).line());
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceReader.parse("f", List.of(S123)));
    assertTrue(e.getMessage().startsWith("f:1: the first line must be the header"), e.getMessage());
    e = assertThrows(TraceFormatException.class,
        () -> TraceReader.parse("f", List.of(HEAD.replace("hicache-sync-trace/1", "other/9"))));
    assertTrue(e.getMessage().contains("unknown trace format 'other/9'"), e.getMessage());
    e = assertThrows(TraceFormatException.class,
        () -> TraceReader.parse("f", List.of(HEAD.replace("\"Version\":\"merged\"", "\"Version\":\"v9\""))));
    assertTrue(e.getMessage().startsWith("f:1: field 'version'"), e.getMessage());
    e = assertThrows(TraceFormatException.class,
        () -> TraceReader.parse("f", List.of(HEAD.replace(",\"HostCap\":2", ""))));
    assertTrue(e.getMessage().contains("missing field 'HostCap'"), e.getMessage());
  }
}
