package dev.hicachesync.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The NDJSON reader: what it accepts, and one precise line for each way a line can be wrong. */
class MooncakeTraceTest {

  private static final String GOOD =
      "{\"timestamp\": 3, \"input_length\": 600, \"output_length\": 7, \"hash_ids\": [4, 5]}";

  @Test
  void readsTheTinySliceSkippingBlankLines() {
    List<MooncakeRequest> t = Traces.resource(Traces.TINY);
    assertEquals(12, t.size());
    MooncakeRequest r = t.get(6);
    assertEquals(6, r.index());
    assertEquals(8, r.line(), "the blank line 7 is counted in line numbers");
    assertEquals(512, r.inputLength());
  }

  @Test
  void readsTheCommittedHeadOfTheConversationTrace() {
    List<MooncakeRequest> t = Traces.resource(Traces.CONVERSATION_HEAD);
    assertEquals(300, t.size());
    assertEquals(8_490, t.stream().mapToLong(MooncakeRequest::blocks).sum());
    assertEquals(6_758, t.get(0).inputLength());
  }

  /**
   * Optional: the whole trace, where the shared workloads sit beside the repository (they are not
   * committed). The committed head must be its first 300 requests.
   */
  @Test
  void readsTheWholeConversationTrace() throws IOException {
    Path file = Traces.mooncake("conversation_trace.jsonl");
    assumeTrue(Files.isRegularFile(file), "no Mooncake trace at " + file);
    long requests = 0;
    long blocks = 0;
    try (MooncakeTrace t = MooncakeTrace.open(file)) {
      while (t.hasNext()) {
        blocks += t.next().blocks();
        requests++;
      }
    }
    assertEquals(12_031, requests);
    assertEquals(288_500, blocks);
    assertEquals(Files.readAllLines(file).subList(0, 300), new String(
        Traces.class.getResourceAsStream(Traces.CONVERSATION_HEAD).readAllBytes(), StandardCharsets.UTF_8).lines().toList(),
        "the committed head is the trace's first 300 lines");
  }

  /** Each bad line sits at line 3, after a good line and a blank line: the number must say 3. */
  @ParameterizedTest(name = "{1}: {0}")
  @CsvSource(delimiter = '|', textBlock = """
      {"timestamp": 3, "input_length": 600, "output_length": 7}                          | hash_ids     | missing
      {"timestamp": 3, "input_length": 600, "output_length": 7, "hash_ids": 4}           | hash_ids     | expected an array
      {"timestamp": 3, "input_length": 600, "output_length": 7, "hash_ids": []}          | hash_ids     | empty
      {"timestamp": 3, "input_length": 600, "output_length": 7, "hash_ids": [4, "5"]}    | hash_ids[1]  | non-negative integer
      {"timestamp": 3, "input_length": 600, "output_length": 7, "hash_ids": [4, -5]}     | hash_ids[1]  | must be >= 0
      {"timestamp": 3, "input_length": 600, "output_length": 7, "hash_ids": [4, 2097152]} | hash_ids[1]  | out of range
      {"timestamp": 3, "input_length": 600.5, "output_length": 7, "hash_ids": [4, 5]}    | input_length | non-negative integer
      {"timestamp": 3, "input_length": -600, "output_length": 7, "hash_ids": [4, 5]}     | input_length | must be >= 0
      {"timestamp": 3, "input_length": 1025, "output_length": 7, "hash_ids": [4, 5]}     | input_length | larger than 512 x 2
      {"timestamp": 3, "input_length": 512, "output_length": 7, "hash_ids": [4, 5]}      | input_length | block 1 of hash_ids empty
      {"timestamp": 3, "input_length": 9999999999, "output_length": 7, "hash_ids": [4]}  | input_length | out of range
      {"timestamp": 3, "input_length": 600, "output_length": null, "hash_ids": [4, 5]}   | output_length | non-negative integer
      {"input_length": 600, "output_length": 7, "hash_ids": [4, 5]}                      | timestamp    | missing
      {"timestamp": 2, "input_length": 600, "output_length": 7, "hash_ids": [4, 5]}      | timestamp    | decreases
      {"timestamp": 3, "input_length": 600, "output_length": 7, "hash_ids": [4, 5]} 7    | line         | not valid JSON
      {"timestamp": 3, "timestamp": 3, "input_length": 600, "output_length": 7, "hash_ids": [4]} | line | not valid JSON
      {"timestamp": 3, "input_length": 600,                                              | line         | not valid JSON
      [1, 2, 3]                                                                          | line         | not a JSON object
      """)
  void malformedLineNamesLineNumberAndField(String text, String field, String problem) {
    String trace = GOOD + "\n\n" + text + "\n" + GOOD + "\n";
    MalformedTraceException e = assertThrows(MalformedTraceException.class, () -> {
      try (MooncakeTrace t = MooncakeTrace.open(new StringReader(trace), "bad.jsonl")) {
        t.forEachRemaining(r -> { });
      }
    });
    assertEquals(3, e.line());
    assertEquals(field, e.field());
    assertTrue(e.getMessage().startsWith("bad.jsonl:3: " + field + ": "), e.getMessage());
    assertTrue(e.getMessage().contains(problem), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
  }

  @Test
  void goodLinesBeforeTheBadOneAreHandedOut() {
    String trace = GOOD + "\n{\"timestamp\": 3}\n";
    MooncakeTrace t = MooncakeTrace.open(new StringReader(trace), "t");
    assertEquals(600, t.next().inputLength());
    assertThrows(MalformedTraceException.class, t::hasNext);
  }
}
