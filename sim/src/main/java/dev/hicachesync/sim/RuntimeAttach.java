package dev.hicachesync.sim;

import dev.hicachesync.controller.CacheController;
import dev.hicachesync.controller.StorageAttachSteps;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.environment.FaultParts;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import java.util.Set;

/**
 * The runtime attach request of a fault scenario on one rank ({@code unified}): handled at its RECV step
 * ({@link Fault#ATTACH_STEP}; a spec-shaped run at its first RECV, as HiCacheUnified.tla's RecvComplete), in
 * one call ({@link CacheController#attachStorage}) or step by step ({@link Fault#ATTACH_STEPS}: {@link
 * CacheController#attachStorageBackend}), and with {@link Fault#ATTACH_RETRY} again at every later step until
 * handled. Which ranks' backends fail: the odd ranks, a spec-shaped run the ranks it names; each fails at its
 * first attach only.
 */
final class RuntimeAttach {
  private final int rank;
  private final SimConfig cfg;
  private final CacheController controller;
  private final StorageAttachSteps how;
  private boolean pending;
  private boolean tried;

  RuntimeAttach(int rank, SimConfig cfg, CacheController controller) {
    this.rank = rank;
    this.cfg = cfg;
    this.controller = controller;
    Set<Fault> f = cfg.faults();
    this.how = new StorageAttachSteps(f.contains(Fault.ATTACH_FAILS_BEFORE_GROUPS),
        f.contains(Fault.ATTACH_REGISTER_V2_RAISES), f.contains(Fault.ATTACH_AGREED),
        f.contains(Fault.ATTACH_PARTIAL_ROLLBACK));
    this.pending = FaultParts.runtimeAttach(f);
  }

  /** Handles the attach request at step {@code step}'s RECV, if it is due. Scheduler thread. */
  void atRecv(long step) {
    long first = cfg.specShaped() != null ? 0 : Fault.ATTACH_STEP;
    if (!pending || step < first) {
      return;
    }
    boolean ok = cfg.faults().contains(Fault.ATTACH_ALL_OK) || tried
        || (cfg.specShaped() != null ? cfg.specShaped().attachSucceedsOn(rank) : rank % 2 == 0);
    tried = true;
    if (!cfg.faults().contains(Fault.ATTACH_STEPS)) {
      controller.attachStorage(ok, how.agree());
      pending = false;
      return;
    }
    boolean handled = controller.attachStorageBackend(ok, how);
    pending = !handled && (cfg.faults().contains(Fault.ATTACH_RETRY) || how.failsBeforeGroups());
  }

  /** Whether an attach request waits to be handled (at the next RECV: a retry). */
  boolean pending() {
    return pending;
  }

  /**
   * AttachStateConsistent at the end of step {@code step}, the boundary before the next RECV: the controller is
   * not half attached (only the step-by-step attach can leave it so); not checked in a spec-shaped run that
   * leaves it out ({@link dev.hicachesync.sim.spec.SpecShaped#attachStateChecked}). Scheduler thread.
   */
  void atStepEnd(long step) {
    if (controller.halfAttached() && (cfg.specShaped() == null || cfg.specShaped().attachStateChecked())) {
      throw new InvariantViolation(Invariant.AttachStateConsistent, "rank " + rank + " at the end of step " + step
          + ": the controller is half attached (a failed attach left its threads and groups up, enable_storage"
          + " off, and was not rolled back)");
    }
  }
}
