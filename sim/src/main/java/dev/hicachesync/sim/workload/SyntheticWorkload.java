package dev.hicachesync.sim.workload;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Multi-turn chat sessions that share long prefixes, like the Mooncake traces HiCache is benchmarked
 * with: a few system prompts shared by many sessions, each turn's prompt is the whole history plus a new
 * user message, sessions end after some turns and are replaced, and a few requests are aborted while they
 * wait.
 *
 * <p>A pure function of (seed, dp replica, step): the next turn of a session is drawn when it arrives, not
 * when the previous one finishes, so the stream never depends on a rank's progress.
 */
public final class SyntheticWorkload implements Workload {
  /** Sessions alive at once; their histories are the working set the tiers compete for. */
  private static final int SESSIONS = 24;
  /** Distinct system prompts shared by all sessions. */
  private static final int SYSTEM_PROMPTS = 4;
  /** Turns before a session is replaced by a fresh one. */
  private static final int MAX_TURNS = 8;
  /** Probability that a step has an arrival. */
  private static final double ARRIVAL = 0.45;
  /** Probability that a request is aborted if it is still waiting a few steps later. */
  private static final double ABORT = 0.05;

  private final SplittableRandom rnd;
  private final int pageSize;
  private final int dp;
  private final int[][] systemPrompts = new int[SYSTEM_PROMPTS][];
  private final int[][] history = new int[SESSIONS][];
  private final int[] turns = new int[SESSIONS];
  private long next;

  /** Creates the stream of replica {@code dp} for {@code seed}, with {@code pageSize}-token pages. */
  public SyntheticWorkload(long seed, int dp, int pageSize) {
    this.rnd = new SplittableRandom(seed * 1_000_003L + dp);
    this.pageSize = pageSize;
    this.dp = dp;
    for (int i = 0; i < SYSTEM_PROMPTS; i++) {
      systemPrompts[i] = tokens(pageSize * (4 + rnd.nextInt(5)));
    }
    for (int s = 0; s < SESSIONS; s++) {
      resetSession(s);
    }
  }

  /** Returns a factory for this workload with {@code pageSize}-token pages. */
  public static Workload.Factory factory(int pageSize) {
    return (seed, dp) -> new SyntheticWorkload(seed, dp, pageSize);
  }

  @Override
  public List<Request> arrivals(long step) {
    if (rnd.nextDouble() >= ARRIVAL) {
      return List.of();
    }
    int s = rnd.nextInt(SESSIONS);
    if (turns[s] >= MAX_TURNS) {
      resetSession(s);
    }
    int[] user = tokens(pageSize / 2 + rnd.nextInt(2 * pageSize));
    int[] prompt = concat(history[s], user);
    int[] output = tokens(pageSize / 4 + rnd.nextInt(pageSize));
    history[s] = concat(prompt, output);
    turns[s]++;
    long eligible = step + rnd.nextInt(4);
    long abort = rnd.nextDouble() < ABORT ? step + 1 + rnd.nextInt(3) : -1;
    String rid = "d" + dp + "-r" + (next++);
    return List.of(new Request(rid, prompt, output, 2 + rnd.nextInt(6), eligible, abort));
  }

  @Override
  public String describe() {
    return "synthetic sessions=" + SESSIONS + " system-prompts=" + SYSTEM_PROMPTS + " turns<=" + MAX_TURNS;
  }

  private void resetSession(int s) {
    history[s] = systemPrompts[rnd.nextInt(SYSTEM_PROMPTS)].clone();
    turns[s] = 0;
  }

  private int[] tokens(int n) {
    int[] t = new int[n];
    for (int i = 0; i < n; i++) {
      t[i] = rnd.nextInt(32_000);
    }
    return t;
  }

  private static int[] concat(int[] a, int[] b) {
    int[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }
}
