package dev.hicachesync.sim;

/**
 * One generated request of a {@link ScriptedWorkload}: the next turn of a chat session.
 *
 * @param gap steps since the previous turn of the script arrived (0: same step)
 * @param session which session it continues (sessions share system prompts: shared prefixes)
 * @param userTokens new user tokens appended to the session's history
 * @param outputTokens tokens it generates (appended to the history and cached when it finishes)
 * @param decodeSteps steps it runs once admitted (≥ 1)
 * @param eligibleDelay steps it waits before it may be admitted
 * @param abortDelay steps after arrival at which it is aborted if still waiting, or -1
 */
record Turn(int gap, int session, int userTokens, int outputTokens, int decodeSteps, int eligibleDelay,
    int abortDelay) {

  /** Returns the compact form used in replay strings, e.g. {@code 1/0/40/9/3/0/-1}. */
  String encode() {
    return gap + "/" + session + "/" + userTokens + "/" + outputTokens + "/" + decodeSteps + "/" + eligibleDelay
        + "/" + abortDelay;
  }

  /** Parses {@link #encode()}'s form. */
  static Turn decode(String s) {
    String[] f = s.split("/");
    return new Turn(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2]),
        Integer.parseInt(f[3]), Integer.parseInt(f[4]), Integer.parseInt(f[5]), Integer.parseInt(f[6]));
  }

  @Override
  public String toString() {
    return encode();
  }
}
