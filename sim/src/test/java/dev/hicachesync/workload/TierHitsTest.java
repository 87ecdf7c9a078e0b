package dev.hicachesync.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.hicachesync.workload.TierHits.Tier;
import org.junit.jupiter.api.Test;

/** Tier accounting: tokens split by tier, blocks credited to the tier of their last token. */
class TierHitsTest {

  @Test
  void blocksGoToTheTierHoldingTheirLastToken() {
    TierHits h = new TierHits();
    // 4 blocks (last one 100 tokens): L1 covers block 0 and half of 1, L2 finishes 1, L3 covers 2.
    MooncakeRequest r = new MooncakeRequest(0, 1, 0, 1636, 5, new long[] {1, 2, 3, 4}, 0);
    h.add(r, 768, 256, 512);
    assertEquals(768, h.tokens(Tier.L1));
    assertEquals(100, h.tokens(Tier.MISS));
    assertEquals(1, h.blocks(Tier.L1));
    assertEquals(1, h.blocks(Tier.L2));
    assertEquals(1, h.blocks(Tier.L3));
    assertEquals(1, h.blocks(Tier.MISS));
    assertEquals(1536.0 / 1636, h.totalTokenRatio(), 1e-12);
    assertEquals(0.75, h.totalBlockRatio(), 1e-12);
  }

  @Test
  void aFullHitCoversThePartialLastBlock() {
    TierHits h = new TierHits();
    h.add(new MooncakeRequest(0, 1, 0, 600, 5, new long[] {1, 2}, 0), 600, 0, 0);
    assertEquals(2, h.blocks(Tier.L1));
    assertEquals(1.0, h.totalBlockRatio());
  }

  @Test
  void rejectsHitsLongerThanTheInput() {
    MooncakeRequest r = new MooncakeRequest(0, 1, 0, 600, 5, new long[] {1, 2}, 0);
    assertThrows(IllegalArgumentException.class, () -> new TierHits().add(r, 512, 64, 64));
  }
}
