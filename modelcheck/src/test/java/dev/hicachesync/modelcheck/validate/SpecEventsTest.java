package dev.hicachesync.modelcheck.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.trace.ndjson.NdjsonTraceRecorder;
import dev.hicachesync.trace.Trace;
import dev.hicachesync.trace.TraceHeader;
import dev.hicachesync.trace.ndjson.TraceReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Merging members' lines into spec steps, the TLA+ text, and reading TLC's progress prints (no TLC run). */
class SpecEventsTest {

  static final TraceHeader H = new TraceHeader(1, 2, 2, 1, "post20460", "timeout", "write_through", true,
      List.of(1), 1, 1, 2, 1);

  static String coll(int r, String grp, String members, String site, int stage, String val, String res) {
    return "{\"ev\":\"CollectiveCompletes\",\"r\":" + r + ",\"step\":0,\"grp\":\"" + grp + "\",\"ch\":\"sched\","
        + "\"m\":" + members + ",\"site\":\"" + site + "\",\"stage\":" + stage + ",\"op\":\"MIN\",\"val\":" + val
        + ",\"res\":" + res + "}";
  }

  static List<SpecEvent> merge(String... lines) throws Exception {
    List<String> all = new ArrayList<>(List.of(NdjsonTraceRecorder.line(H)));
    all.addAll(List.of(lines));
    Trace t = TraceReader.parse("t", all);
    return SpecEvents.merge(t);
  }

  @Test
  void kthLinesOfAGroupsMembersAreOneStepAtTheFirstLine() throws Exception {
    List<SpecEvent> es = merge(
        coll(0, "attn_cp", "[0,2]", "S1", 1, "[1]", "[0]"),
        coll(1, "attn_cp", "[1,3]", "S1", 1, "[0]", "[0]"),
        coll(2, "attn_cp", "[0,2]", "S1", 1, "[0]", "[0]"),
        coll(3, "attn_cp", "[1,3]", "S1", 1, "[0]", "[0]"),
        coll(0, "attn_cp", "[0,2]", "S2", 1, "[0]", "[0]"),   // second call of group {0,2}
        coll(2, "attn_cp", "[0,2]", "S2", 1, "[0]", "[0]"));
    assertEquals(3, es.size());
    assertEquals(List.of(2, 3, 6), es.stream().map(SpecEvent::line).toList());
    assertEquals(List.of(0, 2), es.get(0).ranks());
    assertEquals(List.of(1, 3), es.get(1).ranks());
    assertEquals("S2", ((dev.hicachesync.trace.CollectiveRecord) es.get(2).first()).site());
    assertTrue(es.stream().allMatch(e -> e.kind().equals("CollectiveCompletes")));
    String tla = TraceModule.event(es.get(0));
    assertTrue(tla.contains("m |-> <<0, 2>>") && tla.contains("val |-> <<<<1>>, <<0>>>>")
        && tla.contains("res |-> <<<<0>>, <<0>>>>") && tla.contains("pop |-> <<<<>>, <<>>>>")
        && tla.contains("snap |-> <<NoSnap, NoSnap>>"), tla);
  }

  /**
   * merged's one S123 over the (CP=2, TP=2) grid, as the simulator logs it, becomes the spec's two steps:
   * attn_cp {0,2} and {1,3} (stage 1, each member's value, the group's MIN), then attn_tp {0,1} and {2,3}
   * (stage 2, the stage-1 results, the logged final result and pops).
   */
  @Test
  void aFusedS123OverTheGridIsTheSpecsAttnCpThenAttnTpSteps() throws Exception {
    String m = "[0,1,2,3]";
    String res = "[0,1,0,0,0]";
    List<SpecEvent> es = merge(
        coll(0, "domain", m, "S123", 1, "[2,1,0,0,0]", res).replace("}", ",\"pop\":[0,1,0,0,0]}"),
        coll(1, "domain", m, "S123", 1, "[1,3,0,0,0]", res).replace("}", ",\"pop\":[0,1,0,0,0]}"),
        coll(2, "domain", m, "S123", 1, "[0,2,0,0,0]", res).replace("}", ",\"pop\":[0,1,0,0,0]}"),
        coll(3, "domain", m, "S123", 1, "[5,1,0,0,0]", res).replace("}", ",\"pop\":[0,1,0,0,0]}"));
    assertEquals(4, es.size());
    assertEquals(List.of(List.of(0, 2), List.of(1, 3), List.of(0, 1), List.of(2, 3)),
        es.stream().map(SpecEvent::ranks).toList());
    assertEquals(List.of(1, 2, 3, 4), es.stream().map(SpecEvent::number).toList());
    assertTrue(es.stream().allMatch(e -> e.line() == 2), "all at the fused collective's first line");
    var cp0 = es.get(0).members().get(2);
    assertEquals("attn_cp", cp0.group());
    assertEquals(1, cp0.stage());
    assertEquals(List.of(0L, 2L, 0L, 0L, 0L), cp0.value());
    assertEquals(List.of(0L, 1L, 0L, 0L, 0L), cp0.result());      // MIN of ranks 0 and 2
    assertEquals(null, cp0.popped());
    var cp1 = es.get(1).members().get(1);
    assertEquals(List.of(1L, 1L, 0L, 0L, 0L), cp1.result());      // MIN of ranks 1 and 3
    var tp0 = es.get(2).members().get(1);
    assertEquals("attn_tp", tp0.group());
    assertEquals(2, tp0.stage());
    assertEquals(List.of(1L, 1L, 0L, 0L, 0L), tp0.value());       // rank 1's attn_cp result
    assertEquals(List.of(0L, 1L, 0L, 0L, 0L), tp0.result());
    assertEquals(List.of(0L, 1L, 0L, 0L, 0L), tp0.popped());
  }

  @Test
  void membersThatDisagreeOnTheCallAreAMismatchedCollective() throws Exception {
    List<SpecEvent> es = merge(
        coll(0, "attn_cp", "[0,2]", "S1", 1, "[0]", "[0]"),
        coll(2, "attn_cp", "[0,2]", "S2", 1, "[0]", "[0]"));
    assertEquals(1, es.size());
    assertEquals("MismatchedCollective", es.get(0).kind());
    assertTrue(es.get(0).note().contains("rank 0 called S1 stage 1 MIN with 1 value, rank 2 called S2"),
        es.get(0).note());
    assertTrue(TraceModule.event(es.get(0)).startsWith("[ev |-> \"MismatchedCollective\", line |-> 2"));
  }

  @Test
  void aCollectiveWithoutEveryMembersLineIsIncomplete() throws Exception {
    List<SpecEvent> es = merge(coll(1, "attn_tp", "[0,1]", "S1", 2, "[0]", "[0]"));
    assertEquals("IncompleteCollective", es.get(0).kind());
    assertTrue(es.get(0).note().contains("no line from rank [0]"), es.get(0).note());
  }

  @Test
  void differentResultsAreWhereTheRanksDisagree() throws Exception {
    List<SpecEvent> es = merge(
        coll(0, "attn_cp", "[0,2]", "S1", 1, "[0]", "[0]"),
        coll(2, "attn_cp", "[0,2]", "S1", 1, "[0]", "[0]"),
        coll(0, "attn_cp", "[0,2]", "S2", 1, "[1]", "[1]"),
        coll(2, "attn_cp", "[0,2]", "S2", 1, "[1]", "[0]"));
    assertEquals("event 2 (line 4): S2 result [1] on rank 0, [0] on rank 2",
        SpecEvents.firstDisagreement(es).orElseThrow());
  }

  @Test
  void progressPrintsGiveTheLargestIndexAndWhatWasPosted() {
    List<String> out = List.of(
        "<< \"TRACE-AT\",", "   1,", "   ( 0 :> [pf |-> \"none\", sched |-> <<\"RECV\", 1, \"domain\", <<1>>>>] @@",
        "     1 :> [pf |-> \"none\", sched |-> <<\"RECV\", 1, \"domain\", <<1>>>>] ) >>",
        "Finished computing initial states: 1 distinct state generated.",
        "<< \"TRACE-AT\",", "   2,", "   ( 0 :> [pf |-> \"none\", sched |-> <<\"S1\", 1, \"attn_cp\", <<0>>>>] @@",
        "     1 :> [pf |-> <<\"S7\", 1, \"attn_cp\", <<1>>>>, sched |-> <<\"S1\", 1, \"attn_cp\", <<0>>>>] ) >>");
    TraceValidator.Progress p = TraceValidator.progress(out);
    assertEquals(2, p.maxL());
    assertEquals(1, p.posted().size());
    assertEquals("rank 1: pf S7 stage 1 on attn_cp <<1>>, sched S1 stage 1 on attn_cp <<0>>",
        TraceValidator.render(p.posted().get(0), List.of(1)));
  }
}
