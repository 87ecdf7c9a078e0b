package dev.hicachesync.modelcheck.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.Captured;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-rank table on traces captured from TLC. */
class TraceTableTest {

  private static ErrorTrace trace(String name) {
    return TraceParser.parse(Captured.messages(name)).orElseThrow();
  }

  @Test
  void splitsRankIndexedVariablesAndMarksDivergence() {
    TraceAnalysis a = new TraceAnalysis(trace("Diverge"), new RankLayout(2, 2));
    assertEquals(List.of("tree", "acks"), List.copyOf(a.perRankVariables()));
    TraceAnalysis.Step skip = a.steps().get(2);
    assertEquals(List.of(), skip.perRank().get(0));
    assertEquals(List.of("tree+{3}", "acks-<<1>>"), skip.perRank().get(1));
    assertEquals(List.of("step=2", "phase=\"skip\"", "log.last=\"S2\"", "log.ok=FALSE"), skip.global());
    assertEquals(List.of("tree[*]={1, 2}", "acks[*]+<<1>>", "step=1", "phase=\"insert\"", "log.last=\"S1\""),
        a.steps().get(1).global());
    assertEquals(List.of("tree (r0≠r1)", "acks (r0≠r1)"), skip.diverged());
    assertTrue(a.steps().get(1).diverged().isEmpty());
  }

  @Test
  void infersRanksWithoutALayout() {
    TraceAnalysis a = new TraceAnalysis(trace("Diverge"), null);
    assertEquals(2, a.layout().ranks());
    assertEquals(List.of("tree", "acks"), List.copyOf(a.perRankVariables()));
  }

  @Test
  void ranksInDifferentDomainsMayDiffer() {
    // With one rank per domain (e.g. DP=2), differing trees are not a divergence.
    TraceAnalysis a = new TraceAnalysis(trace("Diverge"), new RankLayout(2, 1));
    assertTrue(a.steps().stream().allMatch(s -> s.diverged().isEmpty()));
    String table = TraceTable.render(trace("Diverge"), new RankLayout(2, 1), 120);
    assertTrue(table.contains("no divergence is marked"), "the legend says why nothing is marked: " + table);
  }

  @Test
  void tableFitsTheWidth() {
    String table = TraceTable.render(trace("Big"), new RankLayout(4, 4), 120);
    for (String line : table.split("\n")) {
      assertTrue(line.length() <= 120, "too wide: " + line);
    }
    assertTrue(table.contains("rank 3"), table);
    assertTrue(table.contains("a=9"), table);
    // Every rank ends with the same values: nothing diverged.
    assertTrue(!table.contains("ranks diverge here"), table);
  }

  @Test
  void manyRanksUseTheListing() {
    String table = TraceTable.render(trace("Big"), new RankLayout(4, 4), 60);
    assertTrue(table.contains("step 2: Next"), table);
    assertTrue(table.contains("  rank 0: a=9"), table);
    for (String line : table.split("\n")) {
      assertTrue(line.length() <= 60, "too wide: " + line);
    }
  }

  @Test
  void livenessEndingIsShown() {
    String table = TraceTable.render(trace("Liveness"), null, 120);
    assertTrue(table.contains("then back to state 1 forever"), table);
    assertTrue(table.contains("variables"), table);
  }

  @Test
  void recordPerRankShowsChangedFieldsAndTheDivergingStep() {
    String table = TraceTable.render(trace("AckRace"), new RankLayout(4, 4), 120);
    System.out.println(table);
    String[] lines = table.split("\n");
    for (String line : lines) {
      assertTrue(line.length() <= 120, "too wide: " + line);
    }
    assertTrue(table.contains("rank.acks+<<1>>"), table);
    assertTrue(table.contains("rank[*].pc=\"S1\""), table);
    assertTrue(table.contains("rank[*].acks=<<>>"), "initial records are shown field by field: " + table);
    assertTrue(table.contains("rank.tree={7}"), table);
    assertTrue(table.contains("4! | SyncS1"), table);
    assertTrue(table.contains("ranks diverge here and stay apart: rank.tree (r0≠r2)"), table);
    assertTrue(!table.contains("2! |"), "a rank-local ack queue differing for a while is not a divergence");
  }

  @Test
  void printsDivergeTable() {
    String table = TraceTable.render(trace("Diverge"), new RankLayout(2, 2), 120);
    System.out.println(table);
    System.out.println(TraceTable.render(trace("Big"), new RankLayout(4, 4), 120));
    assertTrue(table.contains("2!") == false && table.contains("3!"), table);
  }
}
