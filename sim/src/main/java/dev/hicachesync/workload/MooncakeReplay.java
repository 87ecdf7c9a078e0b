package dev.hicachesync.workload;

import dev.hicachesync.sim.SimConfig;
import java.util.List;

/**
 * Sets a simulator configuration up to replay a trace: its workload, how many steps, the drain after
 * them, and how often the full tree digest is cross-checked.
 *
 * <p>The run proper ends one step after the last request's arrival plus the longest decode; then
 * {@link #DRAIN_STEPS} steps without arrivals let queued requests and late I/O finish, after which the
 * simulator checks that every rank fell quiet (no ack, prefetch or request left, no page leaked).
 *
 * <p>Why the digest interval scales: a full digest hashes every token in the tree, and a trace's tree
 * grows to millions of tokens; checking it every 1,024 steps would cost more than the replay itself.
 * Every sync point is still compared every step through the ranks' incremental hashes; the full digest
 * is a second opinion, taken {@link #FULL_DIGESTS} times per replay (and always at the end).
 */
public final class MooncakeReplay {

  /** Full tree digests per replay, spread evenly over its steps. */
  public static final int FULL_DIGESTS = 16;

  /** Steps after the run proper for queued requests and late I/O to drain (100 s at 50 ms). */
  public static final long DRAIN_STEPS = 2_000;

  private MooncakeReplay() {}

  /**
   * Points {@code builder} at {@code trace}: its workload split over {@code dp} replicas, the steps it
   * needs, and the digest interval; capacities, policies and topology stay as the caller set them.
   */
  public static SimConfig.Builder configure(SimConfig.Builder builder, List<MooncakeRequest> trace,
      int dp, ReplayTiming timing, String name) {
    long steps = MooncakeWorkload.stepsNeeded(trace, timing, 0);
    return builder
        .steps(steps)
        .drainSteps(DRAIN_STEPS)
        .fullDigestEvery((int) Math.max(1024, Math.min(Integer.MAX_VALUE, steps / FULL_DIGESTS)))
        .workload(MooncakeWorkload.factory(trace, dp, timing, name));
  }
}
