package dev.hicachesync.modelcheck.replay;

import static dev.hicachesync.modelcheck.replay.TraceReads.posted;

import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.report.swimlane.CompletedCall;
import java.util.Arrays;
import java.util.List;

/**
 * Version {@code pipelined}'s asynchronous S123 calls of a {@code HiCacheSync.tla} counterexample that never complete
 * ({@code AsyncNeverStuck}; knob {@code async_rank_off}: rank 0 never issues its call, so its peers' stays posted on
 * the channel "async"): the rank whose call is still posted at the trace's end, and the step whose event check waits
 * on its handle (the step after the one that issued it), where the implementation's wait ends at the collective's
 * timeout. Read from the trace with {@link SpecSchedule}'s steps (a step starts where a RECV completes).
 */
final class AsyncHandleWaits implements StuckCall {
  private final int[] issuedIn;

  private AsyncHandleWaits(int ranks) {
    this.issuedIn = new int[ranks];
    Arrays.fill(issuedIn, -1);
  }

  /** Reads {@code trace}, a counterexample of a model with {@code ranks} ranks in one sync domain. */
  static AsyncHandleWaits of(ErrorTrace trace, int ranks) {
    AsyncHandleWaits w = new AsyncHandleWaits(ranks);
    List<TraceState> states = trace.states();
    int step = -1;
    for (int i = 1; i < states.size(); i++) {
      TraceState before = states.get(i - 1);
      TraceState now = states.get(i);
      if (CompletedCall.between(before, now).filter(c -> c.site().equals("RECV")).isPresent()) {
        step++;
      }
      for (int r = 0; r < ranks; r++) {
        w.track(before, now, r, step);
      }
    }
    return w;
  }

  /** One step of the trace for rank {@code r}: a call posted during step {@code step} is that step's S123's. */
  private void track(TraceState before, TraceState now, int r, int step) {
    if (posted(now, r, "async") == null) {
      issuedIn[r] = -1;
    } else if (posted(before, r, "async") == null) {
      issuedIn[r] = step;
    }
  }

  @Override
  public int stuckRank() {
    int best = -1;
    for (int r = 0; r < issuedIn.length; r++) {
      if (issuedIn[r] >= 0 && (best < 0 || issuedIn[r] < issuedIn[best])) {
        best = r;
      }
    }
    return best;
  }

  /** The step whose event check waits on the handle of the call {@link #stuckRank()} issued, -1 if none. */
  @Override
  public int stuckStep() {
    int r = stuckRank();
    return r < 0 ? -1 : issuedIn[r] + 1;
  }
}
