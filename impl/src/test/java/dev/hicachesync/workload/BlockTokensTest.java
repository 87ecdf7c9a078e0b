package dev.hicachesync.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Synthetic tokens: determined by the id alone, never colliding, outputs apart from inputs. */
class BlockTokensTest {

  @Test
  void tokensOfDistinctBlocksAndOffsetsNeverCollide() {
    Set<Long> seen = new HashSet<>();
    for (long id = 0; id < 600; id++) {
      for (int o = 0; o < 512; o++) {
        long t = BlockTokens.inputToken(id, o);
        assertFalse(BlockTokens.isOutput(t));
        assertTrue(seen.add(t), "collision at block " + id + " offset " + o);
      }
    }
    for (int req = 0; req < 300; req++) {
      for (int o = 0; o < 300; o++) {
        long t = BlockTokens.outputToken(req, o);
        assertTrue(BlockTokens.isOutput(t));
        assertTrue(seen.add(t), "output collision at request " + req + " offset " + o);
      }
    }
    long big = BlockTokens.MAX_BLOCK_ID;
    assertTrue(seen.add(BlockTokens.inputToken(big, 511)));
  }

  @Test
  void mixIsABijectionOnSmallWindows() {
    // Injective on a dense window and on its top-bit neighbours; the proof is in mix63's javadoc.
    Set<Long> out = new HashSet<>();
    for (long x = 0; x < 200_000; x++) {
      assertTrue(out.add(BlockTokens.mix63(x)));
      assertTrue(out.add(BlockTokens.mix63(Long.MAX_VALUE - x)));
    }
  }

  @Test
  void inputIsTheBlocksCutToLengthAndSequenceAppendsOutput() {
    MooncakeRequest a = new MooncakeRequest(0, 1, 0, 700, 3, new long[] {9, 4});
    MooncakeRequest b = new MooncakeRequest(1, 2, 0, 1024, 3, new long[] {9, 4});
    long[] in = BlockTokens.input(a);
    assertEquals(700, in.length);
    assertEquals(BlockTokens.inputToken(4, 187), in[699]);
    assertArrayEquals(in, Arrays.copyOf(BlockTokens.input(b), 700), "equal ids, equal tokens");
    long[] seqA = BlockTokens.sequence(a);
    long[] seqB = BlockTokens.sequence(b);
    assertEquals(703, seqA.length);
    assertEquals(BlockTokens.outputToken(0, 2), seqA[702]);
    assertFalse(seqA[700] == seqB[1024], "outputs are per request");
  }

  @Test
  void rejectsIdsOutsideThePacking() {
    assertThrows(IllegalArgumentException.class, () -> BlockTokens.inputToken(-1, 0));
    assertThrows(IllegalArgumentException.class, () -> BlockTokens.inputToken(0, 512));
    assertThrows(IllegalArgumentException.class,
        () -> BlockTokens.inputToken(BlockTokens.MAX_BLOCK_ID + 1, 0));
  }
}
