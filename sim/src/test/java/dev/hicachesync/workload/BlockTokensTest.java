package dev.hicachesync.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Synthetic tokens: determined by the id alone, never colliding, outputs apart from inputs. */
class BlockTokensTest {

  @Test
  void mixHasAnInverseSoItIsABijectionOfThirtyBits() {
    // An explicit inverse proves injectivity at every point it is checked on; the sample covers the
    // bottom and top of the range and a stride across it.
    for (int x = 0; x < 1 << 20; x++) {
      assertEquals(x, unmix30(BlockTokens.mix30(x)));
      int top = (1 << 30) - 1 - x;
      assertEquals(top, unmix30(BlockTokens.mix30(top)));
      int mid = x * 1021 & ((1 << 30) - 1);
      assertEquals(mid, unmix30(BlockTokens.mix30(mid)));
    }
  }

  /** Undoes mix30 step by step: xor-shifts by repeated application, products by modular inverses. */
  private static int unmix30(int y) {
    int m = (1 << 30) - 1;
    int z = y ^ (y >>> 15);
    z = (z * inverse(0x297a2d39)) & m;
    z = z ^ (z >>> 12) ^ (z >>> 24);
    z = (z * inverse(0x2c1b3c6d)) & m;
    return z ^ (z >>> 15);
  }

  private static int inverse(int odd) {
    return BigInteger.valueOf(odd).modInverse(BigInteger.ONE.shiftLeft(30)).intValue();
  }

  @Test
  void inputAndOutputTokensLiveInDisjointRanges() {
    for (long id : new long[] {0, 1, 182_789, BlockTokens.MAX_BLOCK_ID}) {
      for (int o : new int[] {0, 1, 511}) {
        int t = BlockTokens.inputToken(id, o);
        assertTrue(t >= 0 && !BlockTokens.isOutput(t));
      }
    }
    for (long n : new long[] {0, 1, 4_000_000, BlockTokens.MAX_OUTPUT_TOKENS - 1}) {
      int t = BlockTokens.outputToken(n);
      assertTrue(t >= 0 && BlockTokens.isOutput(t));
    }
  }

  @Test
  void inputIsTheBlocksCutToLengthAndSequenceAppendsOutput() {
    MooncakeRequest a = new MooncakeRequest(0, 1, 0, 700, 3, new long[] {9, 4}, 0);
    MooncakeRequest b = new MooncakeRequest(1, 2, 0, 1024, 3, new long[] {9, 4}, 3);
    int[] in = BlockTokens.input(a);
    assertEquals(700, in.length);
    assertEquals(BlockTokens.inputToken(4, 187), in[699]);
    assertArrayEquals(in, Arrays.copyOf(BlockTokens.input(b), 700), "equal ids, equal tokens");
    int[] seqA = BlockTokens.sequence(a);
    int[] seqB = BlockTokens.sequence(b);
    assertEquals(703, seqA.length);
    assertEquals(BlockTokens.outputToken(2), seqA[702]);
    assertNotEquals(seqA[700], seqB[1024], "outputs are per request");
  }

  @Test
  void rejectsIdsOutsideThePacking() {
    assertThrows(IllegalArgumentException.class, () -> BlockTokens.inputToken(-1, 0));
    assertThrows(IllegalArgumentException.class, () -> BlockTokens.inputToken(0, 512));
    assertThrows(IllegalArgumentException.class,
        () -> BlockTokens.inputToken(BlockTokens.MAX_BLOCK_ID + 1, 0));
    assertThrows(IllegalArgumentException.class,
        () -> BlockTokens.outputToken(BlockTokens.MAX_OUTPUT_TOKENS));
  }
}
