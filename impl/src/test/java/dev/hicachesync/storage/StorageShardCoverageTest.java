package dev.hicachesync.storage;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.hicachesync.storage.StorageShardCoverage.Shard;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import dev.hicachesync.topology.Topology;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** B13 (#37149), INV-8: the storage writer election must write every shard that some rank reads. */
class StorageShardCoverageTest {

  @Test
  void globalTp0LeavesCpShardOneUnwritten() {
    Topology t = Topology.of(1, 2, 2, 1);
    assertEquals(List.of(0), WriterElection.GLOBAL_TP0.writers(t));
    assertEquals(List.of(new Shard(0, 0, 1)), StorageShardCoverage.unwrittenShards(t, WriterElection.GLOBAL_TP0));
    InvariantViolation v = assertThrows(InvariantViolation.class,
        () -> StorageShardCoverage.check(t, WriterElection.GLOBAL_TP0));
    assertEquals(Invariant.StorageShardCoverage, v.invariant());
    assertTrue(v.getMessage().contains("(pp=0,dp=0,cp=1)"), v.getMessage());
  }

  @Test
  void globalTp0WasRightWithoutCp() {
    // Why the bug went unnoticed: one attn_tp group per stage holds the whole KV.
    Topology t = Topology.of(1, 1, 4, 2);
    assertEquals(List.of(), StorageShardCoverage.unwrittenShards(t, WriterElection.GLOBAL_TP0));
  }

  @Test
  void attnTp0WritesEveryShardExactlyOnce() {
    qt().withExamples(100)
        .forAll(integers().between(1, 3), integers().between(1, 3), integers().between(1, 3), integers().between(1, 2))
        .checkAssert((dp, cp, tp, pp) -> {
          Topology t = Topology.of(dp, cp, tp, pp);
          assertDoesNotThrow(() -> StorageShardCoverage.check(t, WriterElection.ATTN_TP0), t.toString());
          Map<Shard, Integer> writersPerShard = new HashMap<>();
          for (int w : WriterElection.ATTN_TP0.writers(t)) {
            var c = t.coords(w);
            writersPerShard.merge(new Shard(c.pp(), c.dp(), c.cp()), 1, Integer::sum);
          }
          assertEquals(pp * dp * cp, writersPerShard.size(), t.toString());
          assertTrue(writersPerShard.values().stream().allMatch(n -> n == 1), t + ": " + writersPerShard);
        });
  }

  @Test
  void globalTp0FailsWheneverThereIsASecondCpShardOrReplica() {
    qt().withExamples(100)
        .forAll(integers().between(1, 3), integers().between(1, 3), integers().between(1, 3), integers().between(1, 2))
        .checkAssert((dp, cp, tp, pp) -> {
          Topology t = Topology.of(dp, cp, tp, pp);
          int unwritten = StorageShardCoverage.unwrittenShards(t, WriterElection.GLOBAL_TP0).size();
          assertEquals(pp * (dp * cp - 1), unwritten, t.toString());
        });
  }

  @Test
  void labelsAreTheTlaConstants() {
    assertEquals(WriterElection.GLOBAL_TP0, WriterElection.parse("global_tp0"));
    assertEquals("attn_tp0", WriterElection.ATTN_TP0.label());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> WriterElection.parse("tp0"))
        .getMessage().contains("'tp0'"));
  }
}
