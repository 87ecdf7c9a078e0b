package dev.hicachesync.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** B16 (#15805): the k-th new_group call of every rank must name the same group (GroupOrder in HiCacheReplicas.tla). */
class GroupCreationTest {

  @Test
  void ownGroupsHangsAtTheFirstCallWithTwoReplicas() {
    Topology t = Topology.of(2, 1, 2, 1);
    List<List<Integer>> rank0 = GroupCreation.OWN_GROUPS.sequence(t, 0);
    List<List<Integer>> rank2 = GroupCreation.OWN_GROUPS.sequence(t, 2);
    assertTrue(rank0.contains(List.of(0, 1)) && !rank0.contains(List.of(2, 3)), rank0.toString());
    assertTrue(rank2.contains(List.of(2, 3)) && !rank2.contains(List.of(0, 1)), rank2.toString());
    assertNotEquals(rank0, rank2);
    assertEquals(OptionalInt.of(0), GroupCreation.OWN_GROUPS.firstStuckCall(t));
  }

  @Test
  void sortedAllGivesEveryRankTheSameSequenceAndCompletes() {
    qt().withExamples(100)
        .forAll(integers().between(1, 3), integers().between(1, 3), integers().between(1, 3), integers().between(1, 2))
        .checkAssert((dp, cp, tp, pp) -> {
          Topology t = Topology.of(dp, cp, tp, pp);
          for (int r = 0; r < t.worldSize(); r++) {
            assertEquals(t.allDistinctGroups(), GroupCreation.SORTED_ALL.sequence(t, r), t + " rank " + r);
          }
          assertFalse(GroupCreation.SORTED_ALL.firstStuckCall(t).isPresent(), t.toString());
        });
  }

  @Test
  void ownGroupsHangsOnEveryMultiRankTopology() {
    qt().withExamples(100)
        .forAll(integers().between(1, 3), integers().between(1, 3), integers().between(1, 3), integers().between(1, 2))
        .checkAssert((dp, cp, tp, pp) -> {
          Topology t = Topology.of(dp, cp, tp, pp);
          assertEquals(t.worldSize() > 1, GroupCreation.OWN_GROUPS.firstStuckCall(t).isPresent(), t.toString());
        });
  }
}
