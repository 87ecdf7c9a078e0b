package dev.hicachesync.api;

import dev.hicachesync.tree.MatchResult;

/**
 * What {@link HiCacheRank#matchPrefix} found for a token sequence ({@code match_prefix}'s result): the
 * leading run on the device, then the run that lives on the host only. Valid until the scheduler thread's
 * next call that may evict (admission, {@link HiCacheRank#checkHicacheEvents}, {@link HiCacheRank#evict}):
 * use it in the same step. Scheduler thread only.
 */
public final class PrefixMatch {
  private final int[] tokens;
  private final MatchResult result;

  PrefixMatch(int[] tokens, MatchResult result) {
    this.tokens = tokens;
    this.result = result;
  }

  /** The query's tokens (not a copy: the callers in this package only read). */
  int[] tokens() {
    return tokens;
  }

  /** The tree's match. */
  MatchResult result() {
    return result;
  }

  /** Returns the matched tokens' sequence length (the whole query). */
  public int queryTokens() {
    return tokens.length;
  }

  /** Returns the tokens from the start that are on the device (L1 hit). */
  public int deviceTokens() {
    return result.deviceTokens();
  }

  /** Returns the tokens after those that are on the host only (L2 hit, to load back). */
  public int hostTokens() {
    return result.hostTokens();
  }

  @Override
  public String toString() {
    return "PrefixMatch[device=" + deviceTokens() + ", host=" + hostTokens() + " of " + tokens.length + "]";
  }
}
