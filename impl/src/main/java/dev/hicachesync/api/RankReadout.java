package dev.hicachesync.api;

import dev.hicachesync.controller.CacheController;
import dev.hicachesync.controller.ControllerDigest;
import dev.hicachesync.controller.ControllerThreads;
import dev.hicachesync.trace.Snapshot;
import java.util.ArrayList;
import java.util.List;

/** What a {@link HiCacheRank} reports of its own state: the trace's RECV snapshot and why it is not quiet. */
final class RankReadout {
  private RankReadout() {}

  /** The RECV line's snapshot of {@code controller} with the scheduler's own request counts. Scheduler thread. */
  static Snapshot recvSnapshot(CacheController controller, int waiting, int running, long abortedRunning) {
    int[] q = controller.view().queueSizes();
    ControllerDigest d = controller.view().digest();
    return new Snapshot(controller.view().freeDevicePages(), controller.view().freeHostPages(), q[0], q[1], q[2],
        q[4], waiting, running, q[3], Snapshot.digest(d.tree(), d.acks(), d.prefetch(), d.alloc()), abortedRunning);
  }

  /**
   * See {@link HiCacheRank#quiescenceErrors}: free-running ({@code free} set), first waits up to {@code
   * idleWaitMillis} for the rank's threads; {@code steps} is the built-in stepped environment, or null.
   */
  static List<String> quiescenceErrors(CacheController controller, StepEnvironment steps, boolean free,
      long idleWaitMillis) {
    ControllerThreads threads = controller.threads();
    if (free && threads != null) {
      threads.awaitIdle(idleWaitMillis);
    }
    List<String> errors = new ArrayList<>(controller.view().quiescenceErrors());
    if (steps != null && steps.pending() > 0) {
      errors.add(steps.pending() + " background operations still pending");
    }
    if (threads != null && threads.pending() > 0) {
      errors.add(threads.pending() + " tasks still handed to the rank's threads");
    }
    return errors;
  }
}
