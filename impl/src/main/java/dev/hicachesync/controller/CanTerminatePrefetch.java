package dev.hicachesync.controller;

import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sync.SpecStep;
import dev.hicachesync.sync.SyncPoint;

/**
 * S4, {@code can_terminate_prefetch} ({@code wait_complete}, {@code timeout}, and {@code best_effort} on a rank
 * with a sidecar pool, {@link SidecarPool}): {@code [!canTerminateLocal, isTerminatedLocal]} MAX over the sync
 * domain; the prefetch stops iff every rank may stop or some rank already stopped (a failed read). A pending
 * sidecar read keeps a rank from stopping.
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
    SidecarPool sidecar = s.sidecar();
    boolean pending = sidecar != null && sidecar.pending(op);
    if (policy == PrefetchPolicy.BEST_EFFORT) {
      if (sidecar == null) {
        return true;
      }
      if (sidecar.faults().earlyReturn()) {
        return !pending; // B15: rank-local, before S5's MIN
      }
    }
    // With a sidecar pool even best_effort waits for the sidecar transfer (#27550), decided by S4's MAX.
    boolean completed = op.deposited() && !op.revoked() && op.completedPages() == op.hitPages() && !pending;
    boolean may = policy == PrefetchPolicy.BEST_EFFORT ? !pending : completed;
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
