package dev.hicachesync.workload;

import dev.hicachesync.sim.workload.ForwardingWorkload;
import dev.hicachesync.sim.workload.Request;
import dev.hicachesync.sim.workload.Workload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A Mooncake trace as the simulator's request source: requests in arrival order, arrival steps from the
 * timestamps ({@link ReplayTiming}), tokens from {@link BlockTokens}.
 *
 * <p>Each request's prompt is its input tokens; its output tokens are what decode appends and the
 * engine caches at finish. With {@code dp} attention-DP replicas, request i goes to replica i mod dp (a
 * round-robin router); every replica's instance sees the same arrival steps, so the whole domain agrees
 * (the RECV check). Arrival steps are computed once for the whole trace; prompts are expanded only when
 * a request arrives, so a replay holds at most the running requests' tokens. One instance per rank,
 * called for steps 0, 1, 2, ... in order ({@link Workload}'s contract).
 */
public final class MooncakeWorkload implements Workload {

  private final List<MooncakeRequest> mine;
  private final long[] arrivalStep;
  private final ReplayTiming timing;
  private final String name;
  private final Map<String, MooncakeRequest> waiting = new HashMap<>();
  private final TierHits hits = new TierHits();
  /** The expansions this instance shares with the other ranks of its run (one per factory). */
  private final SharedArrivals shared;
  private int next;

  private MooncakeWorkload(List<MooncakeRequest> mine, long[] arrivalStep, ReplayTiming timing,
      String name, SharedArrivals shared) {
    this.shared = shared;
    this.mine = mine;
    this.arrivalStep = arrivalStep;
    this.timing = timing;
    this.name = name;
  }

  /** A factory giving every rank of replica {@code dpRank} its share of {@code trace}. */
  public static Workload.Factory factory(List<MooncakeRequest> trace, int dp, ReplayTiming timing,
      String name) {
    if (dp < 1) {
      throw new IllegalArgumentException("dp must be >= 1, got " + dp);
    }
    long[] steps = arrivalSteps(trace, timing);
    SharedArrivals shared = new SharedArrivals(); // the ranks of one factory share each expansion
    return (seed, dpRank) -> {
      List<MooncakeRequest> mine = new ArrayList<>();
      List<Long> at = new ArrayList<>();
      for (int i = dpRank; i < trace.size(); i += dp) {
        mine.add(trace.get(i));
        at.add(steps[i]);
      }
      return new MooncakeWorkload(mine, at.stream().mapToLong(Long::longValue).toArray(), timing, name,
          shared);
    };
  }

  /**
   * Arrival step of every request: its timestamp's step, but at least one step after the previous
   * request's, so bursts spread out in arrival order.
   */
  public static long[] arrivalSteps(List<MooncakeRequest> trace, ReplayTiming timing) {
    long[] steps = new long[trace.size()];
    long prev = -1;
    for (int i = 0; i < steps.length; i++) {
      prev = Math.max(prev + 1, timing.stepOf(trace.get(i).timestampMs()));
      steps[i] = prev;
    }
    return steps;
  }

  /**
   * Steps a replay needs so that every request has arrived and, unless admission queues up, finished:
   * the last arrival plus the longest decode, plus {@code slack} steps for queueing and late I/O.
   */
  public static long stepsNeeded(List<MooncakeRequest> trace, ReplayTiming timing, long slack) {
    if (trace.isEmpty()) {
      return slack;
    }
    long[] steps = arrivalSteps(trace, timing);
    int longest = 0;
    for (MooncakeRequest r : trace) {
      longest = Math.max(longest, timing.decodeSteps(r.outputLength()));
    }
    return steps[steps.length - 1] + longest + 1 + slack;
  }

  @Override
  public List<Request> arrivals(long step) {
    List<Request> due = new ArrayList<>(1); // one per step, as arrivalSteps strictly increases
    while (next < mine.size() && arrivalStep[next] <= step) {
      MooncakeRequest r = mine.get(next++);
      long at = step;
      due.add(shared.get(r.index(), () -> expand(r, at)));
      waiting.put(rid(r), r);
    }
    return due;
  }

  /** Request {@code r} arriving at {@code step}, its tokens expanded from its block ids. */
  private Request expand(MooncakeRequest r, long step) {
    int[] prompt = BlockTokens.input(r);
    int[] output = new int[r.outputLength()];
    for (int i = 0; i < output.length; i++) {
      output[i] = BlockTokens.outputToken(r.outputBase() + i);
    }
    return new Request(rid(r), prompt, output, timing.decodeSteps(r.outputLength()), step, -1);
  }

  /**
   * Records where an admitted request's prefix came from: {@code device} tokens on L1, then {@code host}
   * loaded back from L2, then {@code storage} prefetched from L3; the block-level accounting of
   * {@link #hits()}. The simulator calls this on every rank at admission ({@link Workload#admitted});
   * its report reads the hits of each sync domain's first rank.
   */
  @Override
  public void admitted(Request r, int device, int host, int storage) {
    admitted(r.rid(), device, host, storage);
  }

  /** {@link #admitted(Request, int, int, int)} by request id. */
  public void admitted(String rid, int device, int host, int storage) {
    MooncakeRequest r = waiting.remove(rid);
    if (r == null) {
      throw new IllegalArgumentException("request " + rid + " did not arrive here, or was admitted twice");
    }
    hits.add(r, device, host, storage);
  }

  /**
   * The hits of the replay's sync domains: the sum of {@link #hits()} over the Mooncake workloads among
   * {@code domainWorkloads} (the simulator's {@code SimStats.domainWorkloads()}, one per domain).
   */
  public static TierHits hitsOf(List<Workload> domainWorkloads) {
    TierHits sum = new TierHits();
    for (Workload w : domainWorkloads) {
      if (ForwardingWorkload.unwrap(w) instanceof MooncakeWorkload m) { // under a soak's abort decorator too
        sum.addAll(m.hits);
      }
    }
    return sum;
  }

  /** Hits of the requests recorded by {@link #admitted}, in tokens and 512-token blocks per tier. */
  public TierHits hits() {
    return hits;
  }

  /** The request id of trace request {@code r}: {@code m<index>}, unique in the run. */
  public static String rid(MooncakeRequest r) {
    return "m" + r.index();
  }

  @Override
  public String describe() {
    return "mooncake trace " + name + ": " + mine.size() + " requests, " + timing.msPerStep()
        + " ms per step, " + timing.msPerOutputToken() + " ms per output token";
  }
}
