package dev.hicachesync.sim.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Multi-turn chat sessions that share long prefixes, like the Mooncake traces HiCache is benchmarked
 * with: a few system prompts shared by many sessions, each turn's prompt is the whole history plus a new
 * user message, sessions end after some turns and are replaced, and a few requests are aborted while they
 * wait.
 *
 * <p>A pure function of (seed, dp replica, step): the next turn of a session is drawn when it arrives, not
 * when the previous one finishes, so the stream never depends on a rank's progress.
 *
 * <p>The workloads one {@link #factory} makes for the same (seed, replica) read one stream: the first rank to
 * reach a step draws its arrivals, the others take the same (immutable) requests. Why: drawing the tokens is
 * per-rank work that does not grow with the ranks, and a shared prompt array lets the data paths share its
 * page seeds ({@code sim.datapath.PromptSeeds} keys on the array). The requests are those a stream of the
 * rank's own would draw, element for element.
 */
public final class SyntheticWorkload implements Workload {
  private final SharedSteps steps;
  /** The last step this workload returned; its successor is the next one's. */
  private Step cursor;

  /** Creates the stream of replica {@code dp} for {@code seed}, with {@code pageSize}-token pages, unshared. */
  public SyntheticWorkload(long seed, int dp, int pageSize) {
    this(new SharedSteps(new SessionDraws(seed, dp, pageSize)));
  }

  private SyntheticWorkload(SharedSteps steps) {
    this(steps, steps.join());
  }

  private SyntheticWorkload(SharedSteps steps, Step start) {
    this.steps = steps;
    this.cursor = start;
  }

  /**
   * Returns a factory for this workload with {@code pageSize}-token pages. The workloads it creates for one
   * (seed, replica) before that stream's first step share it; one created later starts a stream of its own
   * (the same requests: a second run with the same factory, or a rank built after its peers started).
   */
  public static Workload.Factory factory(int pageSize) {
    Map<StreamKey, SharedSteps> streams = new HashMap<>();
    return (seed, dp) -> {
      synchronized (streams) {
        SharedSteps s = streams.get(new StreamKey(seed, dp));
        Step start = s == null ? null : s.join();
        if (start == null) {
          s = new SharedSteps(new SessionDraws(seed, dp, pageSize));
          streams.put(new StreamKey(seed, dp), s);
          start = s.join();
        }
        return new SyntheticWorkload(s, start);
      }
    };
  }

  @Override
  public List<Request> arrivals(long step) {
    Step next = cursor.next();
    if (next == null) {
      next = steps.after(cursor, step);
    }
    cursor = next;
    if (next.step() == step) {
      return next.arrivals();
    }
    // Drawn for another step by a peer (steps are 0, 1, 2, ... on every rank, so not in a run): the same
    // draws, with the waiting and abort steps counted from this step, as a stream of its own would give.
    long shift = step - next.step();
    List<Request> moved = new ArrayList<>(next.arrivals().size());
    for (Request r : next.arrivals()) {
      moved.add(new Request(r.rid(), r.prompt(), r.output(), r.decodeSteps(), r.eligibleStep() + shift,
          r.abortStep() < 0 ? -1 : r.abortStep() + shift));
    }
    return moved;
  }

  @Override
  public String describe() {
    return steps.describe();
  }

  private record StreamKey(long seed, int dp) {}

  /** One call's arrivals, linked to the next call's once some reader has drawn it. */
  private static final class Step {
    private final long step;
    private final List<Request> arrivals;
    /** Written once, under the stream's lock; read without it (the requests are published through it). */
    private volatile Step next;

    Step(long step, List<Request> arrivals) {
      this.step = step;
      this.arrivals = arrivals;
    }

    long step() {
      return step;
    }

    List<Request> arrivals() {
      return arrivals;
    }

    /** The next step, or null while no reader has drawn it. */
    Step next() {
      return next;
    }

    /** Sets the next step; only under the stream's lock, once. */
    void link(Step n) {
      next = n;
    }
  }

  /**
   * A stream's steps, drawn once each. Readers hold their own cursor, so the steps behind the slowest one are
   * garbage; the stream keeps its start only until the first draw, for workloads that join before it.
   */
  private static final class SharedSteps {
    private final SessionDraws draws;
    /** Where a reader starts; null once the first step is drawn (a later reader would miss steps). */
    private Step start = new Step(-1, List.of());

    SharedSteps(SessionDraws draws) {
      this.draws = draws;
    }

    String describe() {
      return draws.describe();
    }

    /** Returns where a new reader starts, or null when the stream has begun without it. */
    synchronized Step join() {
      return start;
    }

    /** Returns the step after {@code prev}, drawing it for {@code step} unless another reader has. */
    synchronized Step after(Step prev, long step) {
      if (prev.next() == null) {
        start = null;
        prev.link(new Step(step, draws.arrivals(step)));
      }
      return prev.next();
    }
  }

  /** The sessions and their random draws: one call per step, in order. */
  private static final class SessionDraws {
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

    SessionDraws(long seed, int dp, int pageSize) {
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

    List<Request> arrivals(long step) {
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

    String describe() {
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
}
