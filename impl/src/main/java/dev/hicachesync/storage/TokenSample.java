package dev.hicachesync.storage;

/**
 * A cheap hash of a token range for choosing a slot in the tables where the replicas of a simulation share
 * work they would otherwise repeat ({@code SharedPageKeys} here, the controller's {@code SharedPageSeeds}).
 *
 * <p>Why a sample and not every token: the hash only spreads entries over slots; an entry is taken only
 * after its inputs compare equal in full, so a collision costs a recomputation, never a wrong value. Length,
 * first, middle and last token tell apart the pages of one prompt and of neighbouring prompts, at the cost
 * of three multiplications instead of one per token.
 */
public final class TokenSample {
  private TokenSample() {}

  /** Returns a slot in {@code [0, slots)} ({@code slots} a power of two) for {@code tokens[from, from + len)} after {@code seed}. */
  public static int slot(long seed, int[] tokens, int from, int len, int slots) {
    long h = seed ^ len;
    if (len > 0) {
      h = h * 0x9E3779B97F4A7C15L + tokens[from];
      h = h * 0x9E3779B97F4A7C15L + tokens[from + len / 2];
      h = h * 0x9E3779B97F4A7C15L + tokens[from + len - 1];
    }
    return (int) (h ^ (h >>> 32) ^ (h >>> 17)) & (slots - 1);
  }
}
