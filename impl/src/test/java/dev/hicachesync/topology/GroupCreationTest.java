package dev.hicachesync.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.hicachesync.collective.CollectiveMismatchException;
import dev.hicachesync.collective.LocalFabric;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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

  /**
   * The calls themselves, as world collectives on the in-JVM fabric: the sorted order completes on every rank
   * with every distinct group; the own-groups order fails at its first call by mismatch (rank 0 names [0], rank 1
   * [1]), as the spec's store rendezvous never completes.
   */
  @Test
  void createMakesTheCallsAsWorldCollectives() throws Exception {
    Topology t = Topology.of(2, 1, 2, 1);
    assertEquals(List.of(t.allDistinctGroups().size()), created(t, GroupCreation.SORTED_ALL).stream().distinct().toList());
    ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
        () -> created(t, GroupCreation.OWN_GROUPS));
    assertTrue(e.getCause() instanceof CollectiveMismatchException && e.getCause().getMessage().contains("new_group[0]")
        && e.getCause().getMessage().contains("new_group[1]"), String.valueOf(e.getCause()));
    assertEquals(GroupCreation.OWN_GROUPS, GroupCreation.parse("own_groups"));
  }

  /** The cache group's span (B2): the tp group spans both replicas, attn_cp then attn_tp stay in one. */
  @Test
  void theTpCacheGroupSpansTheReplicas() {
    Topology t = Topology.of(2, 1, 2, 1);
    assertEquals(List.of(List.of(), List.of(0, 1, 2, 3)), CacheGroup.TP.stages(t, 0));
    assertEquals(List.of(List.of(2), List.of(2, 3)), CacheGroup.parse("attn_tp").stages(t, 2));
  }

  private static List<Integer> created(Topology t, GroupCreation order) throws Exception {
    LocalFabric fabric = new LocalFabric(Duration.ofSeconds(5));
    List<Integer> world = new ArrayList<>();
    for (int r = 0; r < t.worldSize(); r++) {
      world.add(r);
    }
    ExecutorService pool = Executors.newFixedThreadPool(t.worldSize());
    try {
      List<Future<Integer>> calls = new ArrayList<>();
      for (int r = 0; r < t.worldSize(); r++) {
        int rank = r;
        calls.add(pool.submit(() -> order.create(fabric.group("world", world, rank), t, rank)));
      }
      List<Integer> made = new ArrayList<>();
      for (Future<Integer> f : calls) {
        made.add(f.get());
      }
      return made;
    } finally {
      pool.shutdownNow();
    }
  }
}
