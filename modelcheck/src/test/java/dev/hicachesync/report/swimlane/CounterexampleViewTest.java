package dev.hicachesync.report.swimlane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.trace.TraceState;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The view of known counterexamples: lanes, collectives with their results, the marked states. */
class CounterexampleViewTest {

  @Test
  void b1HasTwoLanesThreeReceivesAndDivergesAtTheViolatingState() {
    CounterexampleView v = KnownCounterexamples.b1();
    assertEquals(List.of(new Lane(0, "pp 0 · dp 0 · cp 0 · tp 0", "stage 0 · replica 0"),
        new Lane(1, "pp 0 · dp 0 · cp 1 · tp 0", "stage 0 · replica 0")), v.lanes());
    List<String> collectives = v.rows().stream().filter(r -> r.collective().isPresent())
        .map(r -> r.state() + " " + r.collective().get().title() + " -> " + r.collective().get().result()).toList();
    assertEquals(List.of("2 RECV MAX on domain/sched {0, 1} -> <<1>>", "3 RECV MAX on domain/sched {0, 1} -> <<2>>",
        "5 RECV MAX on domain/sched {0, 1} -> <<0>>"), collectives);
    assertEquals(Map.of(0, "<<2>>", 1, "<<2>>"), v.rows().get(2).collective().get().sent());
    assertEquals(5, v.violating());
    assertEquals(5, v.firstDivergence());
    RankDifferences d = v.differences();
    assertEquals(List.of(0, 1), d.ranks());
    // Field by field, not whole records; without the story every field is "other", in TLC's order.
    assertEquals(List.of("popped.w", "running", "tree[1].dev", "tree[1].hp", "tree[1].hw", "tree[1].lock",
        "tree[2].dev", "tree[2].lock", "tree[2].id", "tree[2].at", "nextId", "waiting", "wq"),
        d.fields().stream().map(RankDifferences.Field::path).toList());
    RankDifferences.Field wq = d.fields().get(d.fields().size() - 1);
    assertEquals(Map.of(0, "<<>>", 1, "<<1>>"), wq.values());
    // Only rank 0 moved in state 4 (its write event completed).
    assertEquals(List.of(List.of("wDone=1"), List.of()), v.rows().get(3).perRank());
    assertEquals("0", v.states().get(3).ranks().get(1).get("wDone"));
  }

  @Test
  void b13DrawsCollectivesOverNonAdjacentLanes() {
    CounterexampleView v = KnownCounterexamples.b13();
    assertEquals(4, v.lanes().size());
    assertTrue(v.rows().stream().anyMatch(r -> r.collective().map(c -> c.site().equals("S7")
        && c.group().equals("attn_cp") && c.members().equals(List.of(0, 2))).orElse(false)));
    // Every step TLC took by completing a collective has one drawn, and no other step has one.
    for (int i = 1; i < v.rows().size(); i++) {
      CounterexampleView.Row row = v.rows().get(i);
      assertEquals(row.action().equals("SomeCollectiveCompletes"), row.collective().isPresent(), "state " + row.state());
    }
    assertEquals(33, v.violating());
  }

  @Test
  void aDeadlockListsTheCallsStillPosted() {
    CounterexampleView v = KnownCounterexamples.b3();
    assertEquals(5, v.violating());
    assertTrue(v.posted().stream().anyMatch(p -> p.startsWith("rank 0 sched: S1 MIN on attn_tp {0, 1}")), v.posted().toString());
    String html = SwimlanePage.render(v);
    assertTrue(html.contains("<div id=\"waiting\">"), "the deadlock says who waits");
    assertFalse(SwimlanePage.render(KnownCounterexamples.b1()).contains("<div id=\"waiting\">"), "only for a deadlock");
  }

  @Test
  void pipelineStagesAreComparedRankByRankWhenNoDomainHasTwoRanks() {
    CounterexampleView v = CounterexampleView.of("b6_stage_local", "violates TreeAgreement",
        KnownCounterexamples.trace("b6_stage_local"), new dev.hicachesync.topology.Topology(1, 1, 1, 2));
    assertEquals("pp 1 · dp 0 · cp 0 · tp 0", v.lanes().get(1).coordinates());
    RankDifferences d = v.differences();
    assertEquals(List.of(0, 1), d.ranks());
    assertTrue(d.fields().stream().anyMatch(f -> f.path().startsWith("ls.log[")), d.fields().toString());
  }

  @Test
  void aStepThatCompletesNothingHasNoCollective() {
    // State 4 of B1 is a write event: the RECV posted by every rank is ready but does not complete.
    List<TraceState> s = KnownCounterexamples.trace("pre20460_cp2").states();
    assertEquals(Optional.empty(), CompletedCall.between(s.get(2), s.get(3)));
    assertTrue(CompletedCall.between(s.get(3), s.get(4)).isPresent());
  }

  @Test
  void theResultIsTheElementWiseMinOrMaxOfThePayloads() {
    for (String op : List.of("MIN", "MAX")) {
      String call = "[site |-> \"S123\", op |-> \"" + op + "\", stage |-> 1, size |-> 2, grp |-> [ch |-> \"sched\","
          + " m |-> {0, 1}, kind |-> \"attn_cp\"], val |-> ";
      TraceState before = state(1, "Initial predicate", "(0 :> [sched |-> " + call + "<<3, 1>>]] @@ 1 :> [sched |-> "
          + call + "<<2, 5>>]])");
      TraceState after = state(2, "SomeCollectiveCompletes",
          "(0 :> [sched |-> [site |-> \"none\"]] @@ 1 :> [sched |-> [site |-> \"none\"]])");
      Collective c = CompletedCall.between(before, after).orElseThrow();
      assertEquals(op.equals("MIN") ? "<<2, 1>>" : "<<3, 5>>", c.result(), op);
      assertEquals(Map.of(0, "<<3, 1>>", 1, "<<2, 5>>"), c.sent());
      assertEquals(List.of(0, 1), c.members());
    }
  }

  private static TraceState state(int n, String action, String coll) {
    return new TraceState(n, action, "", Map.of("coll", dev.hicachesync.modelcheck.value.TlaValueParser.parse(coll)));
  }

  @Test
  void everyCapturedTraceRenders() throws Exception {
    // Traces of the small test specs too: no coll variable, no per-rank variable, lassos, stuttering.
    java.nio.file.Path dir = dev.hicachesync.modelcheck.TestSpecs.root().resolve("modelcheck/src/test/resources/tlc-output");
    int rendered = 0;
    try (var files = java.nio.file.Files.list(dir)) {
      for (java.nio.file.Path f : files.sorted().toList()) {
        String name = f.getFileName().toString().replace(".out", "");
        var trace = dev.hicachesync.modelcheck.trace.TraceParser.parse(dev.hicachesync.modelcheck.Captured.messages(name));
        if (trace.isPresent()) {
          String html = SwimlanePage.render(CounterexampleView.of(name, "violates X", trace.get(), null));
          assertTrue(html.contains("data-state=\"" + trace.get().length() + "\""), name);
          assertTrue(html.endsWith("</html>\n"), name);
          rendered++;
        }
      }
    }
    assertTrue(rendered >= 6, "rendered " + rendered);
  }

  @Test
  void pageEscapesValuesAndCarriesEveryState() {
    String html = SwimlanePage.render(KnownCounterexamples.b1());
    assertTrue(html.contains("&lt;&lt;1&gt;&gt;"), "TLA+ tuples are escaped");
    assertFalse(html.contains("<<1>>"), "no raw TLA+ tuple in the markup");
    assertEquals(5, html.split("class=\"step", -1).length - 1);
    assertTrue(html.contains("<section id=\"verdict\" class=\"verdict\" data-state=\"5\">"));
  }
}
