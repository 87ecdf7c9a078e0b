package dev.hicachesync.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Version {@code unified}'s completion sync (#27010) has groups of its own in {@link RankGroups}: an engine
 * that made none gets a one-line refusal where the rank would race S7 on the prefetch groups (free-running),
 * and groups of the wrong members are named. The race itself: {@code FreeRunningServingLoopTest}.
 */
class CompletionSyncGroupsTest {
  private static final HiCacheConfig UNIFIED_TP2 = HiCacheConfig.builder().pageSize(16).devicePages(8)
      .protocolVersion("unified").parallelism(1, 1, 2, 1).build();

  /** The nine-handle form: what an engine written before the completion-sync groups passes. */
  private static RankGroups withoutCompletionGroups(RankGroups g) {
    return new RankGroups(g.attnTp(), g.attnCp(), g.cpTp(), g.prefetchAttnTp(), g.prefetchAttnCp(),
        g.prefetchCpTp(), g.prefetchPp(), g.fromPrev(), g.toNext());
  }

  @Test
  void unifiedFreeRunningWithoutCompletionGroupsIsRefusedInOneLine() {
    InJvmCluster cluster = InJvmCluster.of(UNIFIED_TP2, Duration.ofMillis(300));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HiCacheRank.builder(UNIFIED_TP2.forRank(0)).groups(withoutCompletionGroups(cluster.groups(0)))
            .threadMode(ThreadMode.FREE_RUNNING).build());
    assertEquals("rank 0: version unified free-running needs the completion-sync groups (RankGroups' "
        + "completion*, #27010): on the prefetch groups S7 and the completion sync race", e.getMessage());
  }

  @Test
  void unifiedSteppedWithoutCompletionGroupsStillBuilds() {
    InJvmCluster cluster = InJvmCluster.of(UNIFIED_TP2, Duration.ofMillis(300));
    try (HiCacheRank rank = HiCacheRank.builder(UNIFIED_TP2.forRank(0))
        .groups(withoutCompletionGroups(cluster.groups(0))).build()) {
      assertEquals(8, rank.freeDevicePages()); // stepped: S7, then the completion sync, in turn on every rank
    }
  }

  @Test
  void completionGroupsOfAnotherRankAreNamed() {
    InJvmCluster cluster = InJvmCluster.of(UNIFIED_TP2, Duration.ofMillis(300));
    RankGroups mine = cluster.groups(0);
    RankGroups other = InJvmCluster.of(HiCacheConfig.builder().pageSize(16).devicePages(8)
        .parallelism(1, 1, 1, 1).build(), Duration.ofMillis(300)).groups(0);
    RankGroups mixed = new RankGroups(mine.attnTp(), mine.attnCp(), mine.cpTp(), mine.prefetchAttnTp(),
        mine.prefetchAttnCp(), mine.prefetchCpTp(), mine.prefetchPp(), mine.fromPrev(), mine.toNext(),
        mine.completionAttnTp(), mine.completionAttnCp(), other.completionCpTp(), null);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HiCacheRank.builder(UNIFIED_TP2.forRank(0)).groups(mixed).build());
    assertEquals("rank 0: its completion cp_tp group has members [0], the grid dp=1,cp=1,tp=2,pp=1 gives [0, 1]",
        e.getMessage());
  }

  @Test
  void completionGroupsComeAsASet() {
    RankGroups g = InJvmCluster.of(UNIFIED_TP2, Duration.ofMillis(300)).groups(0);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RankGroups(g.attnTp(), g.attnCp(), g.cpTp(), g.prefetchAttnTp(), g.prefetchAttnCp(),
            g.prefetchCpTp(), g.prefetchPp(), g.fromPrev(), g.toNext(), g.completionAttnTp(), null,
            g.completionCpTp(), null));
    assertEquals("the completion-sync groups come as a set: attn_tp, attn_cp and cp_tp, or none", e.getMessage());
  }
}
