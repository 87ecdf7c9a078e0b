package dev.hicachesync.controller;

import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sync.SpecStep;
import dev.hicachesync.sync.SyncPoint;

/**
 * S4, {@code can_terminate_prefetch} ({@code wait_complete}, {@code timeout}): {@code [!canTerminateLocal,
 * isTerminatedLocal]} MAX over the sync domain; the prefetch stops iff every rank may stop or some rank
 * already stopped (a failed read).
 *
 * <p>Failure path: deciding locally (a rank whose read finished first, or whose clock timed out first)
 * inserts a different prefix on each rank (INV-5); returning early on one rank only leaves the others in
 * the collective (B15). Scheduler thread only.
 */
@SpecStep(SpecStep.Actor.SCHEDULER)
final class CanTerminatePrefetch {
  private final RankState s;

  CanTerminatePrefetch(RankState s) {
    this.s = s;
  }

  boolean run(PrefetchOperation op) {
    PrefetchPolicy policy = s.config().prefetchPolicy();
    if (policy == PrefetchPolicy.BEST_EFFORT) {
      return true;
    }
    boolean completed = op.deposited() && !op.revoked() && op.completedPages() == op.hitPages();
    boolean may = completed;
    if (policy == PrefetchPolicy.TIMEOUT) {
      long limit = s.config().timeoutBaseTicks() + s.config().timeoutTicksPer1024() * op.tokens().length / 1024;
      may |= s.env().timeoutFires(op.rid(), op.issueTick(), limit); // this rank's clock: S4 makes it common
    }
    long[] r = s.sync().reduce(SyncPoint.S4, ReduceOp.MAX, new long[] {may ? 0 : 1, op.ioFailed() ? 1 : 0});
    boolean stop = r[0] == 0 || r[1] == 1;
    s.hashes().mixPrefetch(4, stop ? 1 : 0);
    s.after(SyncPoint.S4);
    return stop;
  }
}
