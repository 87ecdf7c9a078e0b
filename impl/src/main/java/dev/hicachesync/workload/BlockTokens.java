package dev.hicachesync.workload;

/**
 * Synthetic token ids for trace replay: block hash → 512 input tokens, request → its output tokens.
 *
 * <p>Why this encoding: the trace carries block hashes, not text, and a token-keyed cache needs tokens.
 * The requirement is exact: equal block ids give equal tokens, different (block id, offset) pairs never
 * give the same token, and no output token ever equals an input token (otherwise the replay would find
 * reuse the trace does not have). Each token is a bijective 63-bit mix of an injective packing, so
 * collisions are impossible by construction, not merely unlikely:
 * <ul>
 *   <li>input: {@code 0 ‖ mix63(blockId·512 + offset)}: top bit clear (block ids below 2^54);
 *   <li>output: {@code 1 ‖ mix63(requestIndex·2^32 + offset)}: top bit set, keyed by the request's
 *       position in the trace, so it is deterministic and unique to that request.
 * </ul>
 * The mix (xor-shift, multiply by odd constants, modulo 2^63) spreads neighbouring ids over the whole
 * space, so hashes of page contents (storage keys) see realistic, well-spread tokens.
 */
public final class BlockTokens {

  /** Largest block id the packing accepts: 2^54 − 1, so that {@code id·512 + 511 < 2^63}. */
  public static final long MAX_BLOCK_ID = (1L << 54) - 1;

  /** Largest output length the packing accepts per request: 2^32 tokens. */
  public static final long MAX_OUTPUT = 1L << 32;

  private static final int BLOCK = MooncakeRequest.BLOCK_TOKENS;
  private static final long MASK63 = Long.MAX_VALUE;

  private BlockTokens() {}

  /** The token at {@code offset} (0..511) of block {@code blockId}; depends only on the two. */
  public static long inputToken(long blockId, int offset) {
    if (blockId < 0 || blockId > MAX_BLOCK_ID || offset < 0 || offset >= BLOCK) {
      throw new IllegalArgumentException("block " + blockId + " offset " + offset + " out of range");
    }
    return mix63(blockId * BLOCK + offset);
  }

  /** The token at {@code offset} of the output of the request at trace position {@code requestIndex}. */
  public static long outputToken(int requestIndex, long offset) {
    if (requestIndex < 0 || offset < 0 || offset >= MAX_OUTPUT) {
      throw new IllegalArgumentException("request " + requestIndex + " offset " + offset + " out of range");
    }
    return Long.MIN_VALUE | mix63(((long) requestIndex << 32) | offset);
  }

  /** True for tokens made by {@link #outputToken}, false for those of {@link #inputToken}. */
  public static boolean isOutput(long token) {
    return token < 0;
  }

  /** The request's input: its blocks' tokens concatenated and cut to {@code inputLength}. */
  public static long[] input(MooncakeRequest r) {
    long[] out = new long[r.inputLength()];
    fillInput(r, out, 0);
    return out;
  }

  /** The request's input followed by its {@code outputLength} output tokens: the decoded sequence. */
  public static long[] sequence(MooncakeRequest r) {
    long[] out = new long[r.inputLength() + r.outputLength()];
    fillInput(r, out, 0);
    for (int i = 0; i < r.outputLength(); i++) {
      out[r.inputLength() + i] = outputToken(r.index(), i);
    }
    return out;
  }

  private static void fillInput(MooncakeRequest r, long[] out, int from) {
    int pos = from;
    for (int b = 0; b < r.blocks(); b++) {
      int len = r.blockLength(b);
      for (int o = 0; o < len; o++) {
        out[pos++] = inputToken(r.hashIds()[b], o);
      }
    }
  }

  /**
   * A bijection of [0, 2^63): each step (xor with a right shift of itself; multiply by an odd constant
   * modulo 2^63) is invertible on 63-bit words, so distinct inputs give distinct outputs. Constants and
   * shifts are those of the splitmix64 finaliser, applied modulo 2^63.
   */
  static long mix63(long x) {
    long z = x & MASK63;
    z = ((z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L) & MASK63;
    z = ((z ^ (z >>> 27)) * 0x94d049bb133111ebL) & MASK63;
    return z ^ (z >>> 31);
  }
}
