package dev.hicachesync.sim;

import dev.hicachesync.sim.workload.Request;
import dev.hicachesync.sim.workload.Workload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A {@link Workload} that plays a generated script of {@link Turn}s: multi-turn sessions whose prompts are
 * a shared system prompt, the session's history and the new user message, so consecutive turns and
 * sibling sessions share long prefixes (device, host and storage hits), and some requests are aborted
 * while they wait.
 *
 * <p>A pure function of the script, the number of system prompts and the page size; token values come
 * from a fixed-seed random source, so a shrunk script still means the same prompts.
 */
final class ScriptedWorkload implements Workload {
  private final List<Turn> script;
  private final int dp;
  private final int[][] systemPrompts;
  private final int[][] history;
  private final SplittableRandom tokens;
  private final long[] arrival;
  private int next;

  ScriptedWorkload(List<Turn> script, int systemPromptCount, int systemPromptTokens, int sessions, int dp) {
    this.script = script;
    this.dp = dp;
    this.tokens = new SplittableRandom(0x5C21_97ED + dp);
    this.systemPrompts = new int[systemPromptCount][];
    for (int i = 0; i < systemPromptCount; i++) {
      systemPrompts[i] = draw(systemPromptTokens);
    }
    this.history = new int[sessions][];
    for (int s = 0; s < sessions; s++) {
      history[s] = systemPrompts[s % systemPromptCount].clone();
    }
    this.arrival = new long[script.size()];
    long at = 0;
    for (int i = 0; i < script.size(); i++) {
      at += script.get(i).gap();
      arrival[i] = at;
    }
  }

  /** Returns the system prompts (shared prefixes) of this replica. */
  int[][] systemPrompts() {
    return systemPrompts;
  }

  /** Returns the step of the last arrival (0 for an empty script). */
  static long lastArrival(List<Turn> script) {
    long at = 0;
    for (Turn t : script) {
      at += t.gap();
    }
    return at;
  }

  @Override
  public List<Request> arrivals(long step) {
    List<Request> out = new ArrayList<>();
    while (next < script.size() && arrival[next] == step) {
      out.add(request(script.get(next), step, "d" + dp + "-t" + next));
      next++;
    }
    return out;
  }

  /**
   * Returns turn {@code t} as request {@code rid} arriving at {@code step}: the session's history plus new
   * user tokens (the history grows by the prompt and output). Also how a stateful test injects requests.
   */
  Request request(Turn t, long step, String rid) {
    int s = t.session() % history.length;
    int[] prompt = concat(history[s], draw(t.userTokens()));
    int[] output = draw(t.outputTokens());
    history[s] = concat(prompt, output);
    long abort = t.abortDelay() < 0 ? -1 : step + 1 + t.abortDelay();
    return new Request(rid, prompt, output, Math.max(1, t.decodeSteps()), step + t.eligibleDelay(), abort);
  }

  @Override
  public String describe() {
    return "scripted turns=" + script.size() + " sessions=" + history.length;
  }

  private int[] draw(int n) {
    int[] t = new int[n];
    for (int i = 0; i < n; i++) {
      t[i] = tokens.nextInt(32_000);
    }
    return t;
  }

  private static int[] concat(int[] a, int[] b) {
    int[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }
}
