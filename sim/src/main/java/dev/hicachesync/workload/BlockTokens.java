package dev.hicachesync.workload;

/**
 * Synthetic token ids for trace replay: block hash → 512 input tokens, request → its output tokens.
 *
 * <p>Why this encoding: the trace carries block hashes, not text, and the radix tree is keyed by
 * {@code int} token ids. The requirement is exact: equal block ids give equal tokens, different
 * (block id, offset) pairs never give the same token, and no output token ever equals an input token
 * (otherwise the replay would find reuse the trace does not have). Each token is a bijective 30-bit mix
 * of an injective packing, so collisions are impossible by construction, not merely unlikely:
 * <ul>
 *   <li>input: {@code mix30(blockId·512 + offset)} in [0, 2^30), for block ids below 2^21;
 *   <li>output: {@code 2^30 + mix30(outputBase + offset)} in [2^30, 2^31), where {@code outputBase} is
 *       the number of output tokens of all earlier requests of the trace: deterministic, and disjoint
 *       between requests.
 * </ul>
 * Tokens stay non-negative, as vocabulary ids are. The mix spreads neighbouring ids over the whole
 * space, so page hashes (storage keys) see well-spread tokens.
 */
public final class BlockTokens {

  /** Largest block id the packing accepts: 2^21 − 1 = 2,097,151 (the conversation trace uses 182,789). */
  public static final long MAX_BLOCK_ID = (1L << 21) - 1;

  /** Most output tokens a whole trace may have: 2^30 = 1,073,741,824. */
  public static final long MAX_OUTPUT_TOKENS = 1L << 30;

  private static final int BLOCK = MooncakeRequest.BLOCK_TOKENS;
  private static final int MASK30 = (1 << 30) - 1;
  private static final int OUTPUT_SPACE = 1 << 30;

  private BlockTokens() {}

  /** The token at {@code offset} (0..511) of block {@code blockId}; depends only on the two. */
  public static int inputToken(long blockId, int offset) {
    if (blockId < 0 || blockId > MAX_BLOCK_ID || offset < 0 || offset >= BLOCK) {
      throw new IllegalArgumentException("block " + blockId + " offset " + offset + " out of range");
    }
    return mix30((int) blockId * BLOCK + offset);
  }

  /** The output token number {@code n} of the whole trace (request's outputBase + offset). */
  public static int outputToken(long n) {
    if (n < 0 || n >= MAX_OUTPUT_TOKENS) {
      throw new IllegalArgumentException("output token " + n + " out of range");
    }
    return OUTPUT_SPACE | mix30((int) n);
  }

  /** True for tokens made by {@link #outputToken}, false for those of {@link #inputToken}. */
  public static boolean isOutput(int token) {
    return token >= OUTPUT_SPACE;
  }

  /** The request's input: its blocks' tokens concatenated and cut to {@code inputLength}. */
  public static int[] input(MooncakeRequest r) {
    int[] out = new int[r.inputLength()];
    fillInput(r, out);
    return out;
  }

  /** The request's input followed by its {@code outputLength} output tokens: the decoded sequence. */
  public static int[] sequence(MooncakeRequest r) {
    int[] out = new int[r.inputLength() + r.outputLength()];
    fillInput(r, out);
    for (int i = 0; i < r.outputLength(); i++) {
      out[r.inputLength() + i] = outputToken(r.outputBase() + i);
    }
    return out;
  }

  private static void fillInput(MooncakeRequest r, int[] out) {
    int pos = 0;
    for (int b = 0; b < r.blocks(); b++) {
      int len = r.blockLength(b);
      for (int o = 0; o < len; o++) {
        out[pos++] = inputToken(r.hashIds()[b], o);
      }
    }
  }

  /**
   * A bijection of [0, 2^30): each step (xor with a right shift of itself; multiply by an odd constant
   * modulo 2^30) is invertible on 30-bit words, so distinct inputs give distinct outputs.
   */
  static int mix30(int x) {
    int z = x & MASK30;
    z = ((z ^ (z >>> 15)) * 0x2c1b3c6d) & MASK30;
    z = ((z ^ (z >>> 12)) * 0x297a2d39) & MASK30;
    return z ^ (z >>> 15);
  }
}
