package dev.hicachesync.workload;

/**
 * Per-tier hit accounting of a replay, in tokens and in 512-token trace blocks.
 *
 * <p>A request's matched prefix is ordered by tier, as in SGLang's {@code match_prefix}: first the part
 * resident on the device (L1), then the part only on the host (L2, loaded back), then the part only in
 * storage (L3, prefetched); the rest of the input is a miss. A block counts as hit when the matched
 * prefix covers all its tokens, and it is credited to the tier that holds its last token (the tier whose
 * transfer the block waited for). Not thread-safe: one accumulator per replay.
 */
public final class TierHits {

  private static final int BLOCK = MooncakeRequest.BLOCK_TOKENS;

  private long requests;
  private final long[] tokens = new long[Tier.values().length];
  private final long[] blocks = new long[Tier.values().length];

  /** The tiers a token can be served from, and {@code MISS} for a computed token. */
  public enum Tier {
    /** Matched in device memory. */
    L1,
    /** Matched on the host and loaded back to the device. */
    L2,
    /** Matched in storage and prefetched to the host. */
    L3,
    /** Not cached: computed by prefill. */
    MISS
  }

  /** Records one request whose matched prefix was {@code l1}, then {@code l2}, then {@code l3} tokens. */
  public void add(MooncakeRequest r, long l1, long l2, long l3) {
    long hit = l1 + l2 + l3;
    if (l1 < 0 || l2 < 0 || l3 < 0 || hit > r.inputLength()) {
      throw new IllegalArgumentException(r + ": hits " + l1 + "+" + l2 + "+" + l3 + " exceed the input");
    }
    requests++;
    tokens[Tier.L1.ordinal()] += l1;
    tokens[Tier.L2.ordinal()] += l2;
    tokens[Tier.L3.ordinal()] += l3;
    tokens[Tier.MISS.ordinal()] += r.inputLength() - hit;
    for (int b = 0; b < r.blocks(); b++) {
      long end = (long) b * BLOCK + r.blockLength(b); // one past the block's last token
      Tier t = end <= l1 ? Tier.L1 : end <= l1 + l2 ? Tier.L2 : end <= hit ? Tier.L3 : Tier.MISS;
      blocks[t.ordinal()]++;
    }
  }

  /** Adds everything {@code other} recorded (another replica's share of the same replay). */
  public void addAll(TierHits other) {
    requests += other.requests;
    for (int i = 0; i < tokens.length; i++) {
      tokens[i] += other.tokens[i];
      blocks[i] += other.blocks[i];
    }
  }

  /** Requests recorded. */
  public long requests() {
    return requests;
  }

  /** Input tokens served by {@code t}. */
  public long tokens(Tier t) {
    return tokens[t.ordinal()];
  }

  /** Input blocks credited to {@code t}. */
  public long blocks(Tier t) {
    return blocks[t.ordinal()];
  }

  /** All input tokens recorded. */
  public long inputTokens() {
    long s = 0;
    for (long v : tokens) {
      s += v;
    }
    return s;
  }

  /** All input blocks recorded. */
  public long inputBlocks() {
    long s = 0;
    for (long v : blocks) {
      s += v;
    }
    return s;
  }

  /** Tokens served by {@code t} / all input tokens. */
  public double tokenRatio(Tier t) {
    long all = inputTokens();
    return all == 0 ? 0 : (double) tokens(t) / all;
  }

  /** Blocks credited to {@code t} / all input blocks. */
  public double blockRatio(Tier t) {
    long all = inputBlocks();
    return all == 0 ? 0 : (double) blocks(t) / all;
  }

  /** Hit tokens of all tiers / input tokens. */
  public double totalTokenRatio() {
    long all = inputTokens();
    return all == 0 ? 0 : (double) (all - tokens(Tier.MISS)) / all;
  }

  /** Hit blocks of all tiers / input blocks. */
  public double totalBlockRatio() {
    long all = inputBlocks();
    return all == 0 ? 0 : (double) (all - blocks(Tier.MISS)) / all;
  }

  /** A multi-line report: one line per tier with tokens, blocks and both ratios. */
  public String report() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("%-6s %14s %8s %10s %8s%n", "tier", "tokens", "ratio", "blocks", "ratio"));
    for (Tier t : Tier.values()) {
      sb.append(String.format("%-6s %14d %8.4f %10d %8.4f%n", t, tokens(t), tokenRatio(t), blocks(t),
          blockRatio(t)));
    }
    sb.append(String.format("%-6s %14d %8.4f %10d %8.4f%n", "hit", inputTokens() - tokens(Tier.MISS),
        totalTokenRatio(), inputBlocks() - blocks(Tier.MISS), totalBlockRatio()));
    return sb.toString();
  }
}
