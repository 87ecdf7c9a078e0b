package dev.hicachesync.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TopologyTest {

  @Test
  void formulaPlacesAttnTpFastestThenCpThenDpThenStage() {
    Topology t = Topology.of(2, 2, 2, 2);
    assertEquals(16, t.worldSize());
    assertEquals(8, t.tpSize());
    assertEquals(new RankCoord(0, 0, 1, 0), t.coords(1));
    assertEquals(new RankCoord(0, 1, 0, 0), t.coords(2));
    assertEquals(new RankCoord(1, 0, 0, 0), t.coords(4));
    assertEquals(new RankCoord(1, 1, 1, 1), t.coords(15));
    // tp_rank = (dp*cp + cp_rank)*tp + attn_tp_rank; rank = pp*tpSize + tp_rank
    assertEquals(8 + (1 * 2 + 0) * 2 + 1, t.rankOf(new RankCoord(1, 0, 1, 1)));
  }

  @Test
  void sizesAndCpTpSizeAsTheReportsShowThem() {
    Topology t = Topology.of(2, 2, 4, 3);
    assertEquals("2,2,4,3", t.sizes());
    assertEquals(8, t.cpTpSize());
    assertEquals(t.cpTpSize(), t.cpTpGroup(t.worldSize() - 1).size());
  }

  @Test
  void tp8Cp2GroupsMatchTheBrief() {
    Topology t = Topology.of(1, 2, 4, 1); // tp_size 8 = cp 2 x attn_tp 4
    assertEquals(List.of(List.of(0, 1, 2, 3), List.of(4, 5, 6, 7)), t.groups(GroupKind.ATTN_TP));
    assertEquals(
        List.of(List.of(0, 4), List.of(1, 5), List.of(2, 6), List.of(3, 7)), t.groups(GroupKind.ATTN_CP));
    assertEquals(List.of(4, 5, 6, 7), t.attnTpGroup(6));
    assertEquals(List.of(2, 6), t.attnCpGroup(6));
    assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), t.tpGroup(3));
    assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), t.syncDomain(3));
    assertEquals(List.of(3), t.ppGroup(3));
  }

  @Test
  void nsaPrefillCpHasSingletonAttnTpGroups() {
    // NSA CP: DP attention forced, attn_cp = tp/dp, attn_tp = 1 (tp_size 8, dp 2 -> cp 4).
    Topology t = Topology.of(2, 4, 1, 1);
    for (int r = 0; r < t.worldSize(); r++) {
      assertEquals(List.of(r), t.attnTpGroup(r));
    }
    assertEquals(List.of(0, 1, 2, 3), t.attnCpGroup(2));
    assertEquals(List.of(4, 5, 6, 7), t.syncDomain(5));
    assertEquals(List.of(4, 5, 6, 7), t.cpTpGroup(5));
    // dp = cp as in the brief's minimal case
    Topology small = Topology.of(2, 2, 1, 1);
    assertEquals(List.of(1), small.attnTpGroup(1));
    assertEquals(List.of(2, 3), small.attnCpGroup(3));
  }

  @Test
  void pipelineGroups() {
    Topology t = Topology.of(1, 2, 2, 2);
    assertEquals(List.of(1, 5), t.ppGroup(5));
    assertEquals(List.of(4, 5, 6, 7), t.tpGroup(5));
    assertEquals(List.of(4, 5, 6, 7), t.cpTpGroup(5));
    assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), t.syncDomain(5));
    assertEquals(List.of(5, 7), t.attnCpGroup(5));
  }

  @Test
  void invalidSizesAreRejectedNamingTheValue() {
    InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> Topology.of(1, 0, 2, 1));
    assertEquals("cp must be >= 1, got 0", e.getMessage());
    assertThrows(InvalidTopologyException.class, () -> Topology.of(-1, 1, 1, 1));
    assertThrows(InvalidTopologyException.class, () -> Topology.of(1, 1, 1, 0));
    assertThrows(InvalidTopologyException.class, () -> Topology.of(65536, 65536, 2, 1));
    assertThrows(InvalidTopologyException.class, () -> Topology.of(1, 1, 2, 1).coords(2));
    assertThrows(InvalidTopologyException.class, () -> Topology.of(1, 1, 2, 1).rankOf(new RankCoord(0, 1, 0, 0)));
  }

  @Test
  void parsesSpecStrings() {
    assertEquals(Topology.of(1, 2, 2, 1), Topology.parse("dp=1,cp=2,tp=2,pp=1"));
    assertEquals(Topology.of(1, 1, 4, 2), Topology.parse(" tp=4 , pp=2 "));
    assertTrue(assertThrows(InvalidTopologyException.class, () -> Topology.parse("dp=1,xp=2"))
        .getMessage().contains("xp=2"));
    assertTrue(assertThrows(InvalidTopologyException.class, () -> Topology.parse("tp=two"))
        .getMessage().contains("'two'"));
    assertTrue(assertThrows(InvalidTopologyException.class, () -> Topology.parse("tp=0"))
        .getMessage().contains("tp must be >= 1"));
  }

  @Test
  void allDistinctGroupsIsSortedDeduplicatedAndCoversEveryGroup() {
    Topology t = Topology.of(2, 2, 2, 2);
    List<List<Integer>> all = t.allDistinctGroups();
    assertEquals(all, Topology.of(2, 2, 2, 2).allDistinctGroups(), "same order on every rank");
    assertEquals(new HashSet<>(all).size(), all.size(), "no duplicates");
    for (int i = 1; i < all.size(); i++) {
      assertTrue(Topology.compareGroups(all.get(i - 1), all.get(i)) < 0, "sorted at " + i);
    }
    for (GroupKind kind : GroupKind.values()) {
      for (int r = 0; r < t.worldSize(); r++) {
        assertTrue(all.contains(t.group(kind, r)), kind + " of rank " + r);
      }
    }
  }

  @Test
  void coordsAndRankOfAreInverseAndGroupsPartitionTheWorld() {
    qt().withExamples(200)
        .forAll(integers().between(1, 3), integers().between(1, 3), integers().between(1, 4), integers().between(1, 3))
        .checkAssert((dp, cp, tp, pp) -> {
          Topology t = Topology.of(dp, cp, tp, pp);
          for (int r = 0; r < t.worldSize(); r++) {
            assertEquals(r, t.rankOf(t.coords(r)));
          }
          for (GroupKind kind : GroupKind.values()) {
            List<Integer> seen = new ArrayList<>();
            for (List<Integer> g : t.groups(kind)) {
              seen.addAll(g);
              for (int member : g) {
                assertEquals(g, t.group(kind, member), "every member sees the same " + kind + " group");
              }
            }
            Set<Integer> distinct = new HashSet<>(seen);
            assertEquals(t.worldSize(), seen.size(), kind + " groups are disjoint");
            assertEquals(t.worldSize(), distinct.size(), kind + " groups cover the world");
          }
          assertEquals(cp * tp, t.cpTpGroup(0).size());
          assertEquals(cp * tp * pp, t.syncDomain(0).size());
        });
  }
}
