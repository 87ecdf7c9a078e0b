package dev.hicachesync.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The block-trie oracle against hand-computed figures and a brute-force token-level recomputation. */
class PrefixReuseOracleTest {

  @Test
  void tinySliceMatchesHandComputedHits() {
    PrefixReuseOracle.Result r = PrefixReuseOracle.of(Traces.resource(Traces.TINY).iterator(), 64);
    // By hand: #1 shares blocks [0,1] of #0 (1024); #2 repeats #0 (1100 -> 1088); #3 gets only the 76
    // tokens #0 held of block 2 (1100 -> 1088); #4 gets #3's 376 of block 2 (1400 -> 1344); #6 gets the
    // 300 of #5 (256); #7 the full block 5 of #6 (512); #9 shares 60 (a page is 64: 0); #10 blocks 0-3
    // of #4 (2048); #11 starts with an unseen id (0). Output tokens never extend a match.
    assertArrayEquals(new long[] {0, 1024, 1088, 1088, 1344, 0, 256, 512, 0, 0, 2048, 0},
        r.hitTokensPerRequest());
    assertEquals(12484, r.inputTokens());
    assertEquals(7360, r.hitTokens());
    assertEquals(30, r.inputBlocks());
    assertEquals(13, r.hitBlocks());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 16, 64, 512})
  void tinySliceAgreesWithBruteForce(int pageSize) {
    List<MooncakeRequest> trace = Traces.resource(Traces.TINY);
    assertArrayEquals(bruteForce(trace, pageSize),
        PrefixReuseOracle.of(trace.iterator(), pageSize).hitTokensPerRequest());
  }

  @Test
  void randomTracesWithFewIdsAgreeWithBruteForce() {
    SplittableRandom rnd = new SplittableRandom(20_460);
    for (int round = 0; round < 30; round++) {
      List<MooncakeRequest> trace = randomTrace(rnd, 40);
      assertArrayEquals(bruteForce(trace, 64), PrefixReuseOracle.of(trace.iterator(), 64)
          .hitTokensPerRequest(), "round " + round);
    }
  }

  @Test
  void realTraceSliceAgreesWithBruteForce() {
    List<MooncakeRequest> slice = Traces.resource(Traces.CONVERSATION_HEAD, 150);
    assertArrayEquals(bruteForce(slice, 64), PrefixReuseOracle.of(slice.iterator(), 64)
        .hitTokensPerRequest());
  }

  /** Ids drawn from a small pool so that prefixes collide often, lengths cutting blocks anywhere. */
  private static List<MooncakeRequest> randomTrace(SplittableRandom rnd, int n) {
    List<MooncakeRequest> out = new ArrayList<>();
    long base = 0;
    for (int i = 0; i < n; i++) {
      int blocks = 1 + rnd.nextInt(4);
      long[] ids = new long[blocks];
      for (int b = 0; b < blocks; b++) {
        ids[b] = rnd.nextInt(3); // paths like [0,1,0] are legal input even if not a real prefix hash
      }
      int input = 512 * (blocks - 1) + 1 + rnd.nextInt(512);
      int output = 1 + rnd.nextInt(100);
      out.add(new MooncakeRequest(i, i + 1, i, input, output, ids, base));
      base += output;
    }
    return out;
  }

  /** hit(R) straight from the definition: max LCP of R's input tokens with every earlier sequence. */
  static long[] bruteForce(List<MooncakeRequest> trace, int pageSize) {
    long[] hits = new long[trace.size()];
    List<int[]> seen = new ArrayList<>();
    for (int i = 0; i < trace.size(); i++) {
      int[] in = BlockTokens.input(trace.get(i));
      long best = 0;
      for (int[] s : seen) {
        int k = 0;
        while (k < in.length && k < s.length && in[k] == s[k]) {
          k++;
        }
        best = Math.max(best, k);
      }
      hits[i] = best / pageSize * pageSize;
      seen.add(BlockTokens.sequence(trace.get(i)));
    }
    return hits;
  }
}
