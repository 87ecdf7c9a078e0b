package dev.hicachesync.modelcheck.replay;

import static dev.hicachesync.modelcheck.replay.TraceReads.field;
import static dev.hicachesync.modelcheck.replay.TraceReads.posted;
import static dev.hicachesync.modelcheck.replay.TraceReads.rank;

import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.Arrays;

/**
 * The prefetch threads a counterexample kills and the S7 a live thread then waits in for ever: {@code
 * HiCacheSync.tla}'s knob {@code pf_thread_dies} (spec action {@code PrefetchThreadDies}; the replay's seam {@code
 * Fault.PREFETCH_THREAD_DIES}, answered through {@code Timing.prefetchThreadDies}), filled by {@link SpecSchedule}
 * step by step ({@link #track}), and {@code HiCacheUnified.tla}'s bug {@code PFDIE} (spec action {@code PfRaise};
 * the seam {@code Fault.PF_RAISE_THREAD_DIES}, the query raising through {@code Timing.storageHitQueryRaises}),
 * filled by {@link UnifiedSchedule} ({@link #dies}, {@link #s7Posted}, {@link #s7Ended}) with its own mapping of
 * spec steps to the implementation's passes. What the judgement of the liveness property reads ({@link
 * StuckThreadJudgement}).
 */
final class PrefetchThreadDeaths implements StuckCall {
  private final int[] diesFrom;
  private final int[] postedAt;

  PrefetchThreadDeaths(int ranks) {
    this.diesFrom = new int[ranks];
    this.postedAt = new int[ranks];
    Arrays.fill(diesFrom, Integer.MAX_VALUE);
    Arrays.fill(postedAt, -1);
  }

  /**
   * Reads one step of a {@code HiCacheSync.tla} trace for rank {@code r} (spec step {@code step}): a death taken
   * in step k's window is, for the implementation, before its thread's pass of step k + 1; an S7 posted in step
   * k's window is that pass's.
   */
  void track(TraceState before, TraceState now, int r, int step) {
    if (now.action().equals("PrefetchThreadDies") && dead(now, r) && !dead(before, r)) {
      dies(r, step + 1);
    }
    if (posted(now, r, "pf") == null) {
      s7Ended(r);
    } else if (posted(before, r, "pf") == null) {
      s7Posted(r, step + 1);
    }
  }

  /** Rank {@code r}'s prefetch thread dies at its pass of the implementation's step {@code step}. */
  void dies(int r, int step) {
    diesFrom[r] = Math.min(diesFrom[r], step);
  }

  /** Rank {@code r}'s prefetch thread posts S7 at its pass of the implementation's step {@code step}. */
  void s7Posted(int r, int step) {
    postedAt[r] = step;
  }

  /** Rank {@code r}'s prefetch thread has no S7 posted (any more). */
  void s7Ended(int r) {
    postedAt[r] = -1;
  }

  private static boolean dead(TraceState s, int r) {
    return field(rank(s, "lenv", r), "dead") instanceof TlaValue.Bool b && b.value();
  }

  /** Whether rank {@code rank}'s prefetch thread is dead at the implementation's step {@code step}. */
  boolean dead(int rank, long step) {
    return rank < diesFrom.length && step >= diesFrom[rank];
  }

  /** Whether the trace kills any prefetch thread. */
  boolean any() {
    return Arrays.stream(diesFrom).anyMatch(s -> s != Integer.MAX_VALUE);
  }

  /**
   * The implementation's step of the earliest S7 still posted at the trace's end (a thread that waits there for
   * ever), -1 if none; with its rank in {@link #stuckRank()}.
   */
  @Override
  public int stuckStep() {
    int r = stuckRank();
    return r < 0 ? -1 : postedAt[r];
  }

  /** The rank whose prefetch thread waits for ever in the S7 of {@link #stuckStep()}, -1 if none. */
  @Override
  public int stuckRank() {
    int best = -1;
    for (int r = 0; r < postedAt.length; r++) {
      if (postedAt[r] >= 0 && (best < 0 || postedAt[r] < postedAt[best])) {
        best = r;
      }
    }
    return best;
  }
}
