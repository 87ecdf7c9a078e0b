package dev.hicachesync.cli;

/**
 * The largest topology each command accepts, checked before anything is built ({@code --cp
 * 1000000} ran out of memory after a minute, or made TLC parse for minutes).
 *
 * <p>Why these numbers: the simulator runs one thread and one set of pools per rank, and the largest
 * SGLang deployments it models have a few hundred ranks ({@value #SIMULATE}); TLC's state space grows
 * exponentially with the ranks: {@code check}'s limit is {@code modelcheck.AdhocModel#MAX_RANKS}.
 */
final class WorldLimits {
  /** Ranks {@code simulate} and {@code sweep} accept (dp x cp x tp x pp). */
  static final int SIMULATE = 512;

  private WorldLimits() {}

  /**
   * Checks each size is at least 1 and their product at most {@code max}.
   *
   * @throws IllegalArgumentException one line naming the sizes and the limit
   */
  static void check(String command, int max, int dp, int cp, int tp, int pp) {
    String[] names = {"--dp", "--cp", "--tp", "--pp"};
    int[] sizes = {dp, cp, tp, pp};
    long world = 1;
    for (int i = 0; i < sizes.length; i++) {
      if (sizes[i] < 1) {
        throw new IllegalArgumentException(names[i] + " must be >= 1, got " + sizes[i]);
      }
      world *= sizes[i];
      if (world > max) {
        break;
      }
    }
    if (world > max) {
      throw new IllegalArgumentException(command + " accepts at most " + max + " ranks (dp x cp x tp x pp), got "
          + dp + " x " + cp + " x " + tp + " x " + pp);
    }
  }
}
