package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.env.TransferKind;
import dev.hicachesync.sim.environment.ForwardingTiming;
import dev.hicachesync.sim.environment.SeededTiming;
import dev.hicachesync.sim.environment.Timing;
import dev.hicachesync.storage.StorageBackend;
import dev.hicachesync.topology.Topology;
import java.util.List;

/**
 * The PD prefill replay's seam into the implementation: each rank's {@link Timing} answers a {@code
 * HiCacheUnifiedPP.tla} counterexample's environment ({@link HiCacheUnifiedPPSchedule}) in its stage's steps.
 *
 * <ul>
 *   <li>{@link Timing#bootstrapped}: stage 0's bootstrap poll finds the request bootstrapped from the step after
 *       the ones it had run at {@code Bootstrapped} (its ring moves it into every stage's waiting queue then);
 *   <li>{@link Timing#prefetchPassBeforeEvents} and {@link Timing#prefetchPassRuns}: the storage threads pass at
 *       step 0 (S7, whose hit every stage drains at step 0's S123 and whose read lands at once) and where the
 *       final ack reaches the stage ({@code AckArrives}: the completion sync's S5 over the pp group, one moment
 *       on every stage), nowhere else, so the ack is queued nowhere earlier;
 *   <li>{@link Timing#storageSeenBy}: S7 finds the request's page (the spec's one ack of a prefetch that hits).
 * </ul>
 */
final class HiCacheUnifiedPPEnvironment implements Timing.Factory {

  private final HiCacheUnifiedPPSchedule schedule;
  private final Topology topology;

  HiCacheUnifiedPPEnvironment(HiCacheUnifiedPPSchedule schedule, Topology topology) {
    this.schedule = schedule;
    this.topology = topology;
  }

  @Override
  public Timing create(long seed, int rank, double readFailure) {
    int stage = Math.min(1, topology.coords(rank).pp());
    return new ForwardingTiming(SeededTiming.factory().create(seed, rank, readFailure)) {
      private long step;

      @Override
      public void beginStep(long s) {
        step = s;
        super.beginStep(s);
      }

      @Override
      public long backgroundTicks(TransferKind kind, int pages) {
        return kind == TransferKind.STORAGE_READ ? 0 : super.backgroundTicks(kind, pages); // S7 outcomes, reads
      }

      @Override
      public boolean readFails() {
        return false;
      }

      @Override
      public boolean prefetchPassRuns() {
        return schedule.ackAtStepStart(stage) && step == schedule.ackBefore(stage);
      }

      @Override
      public boolean prefetchPassBeforeEvents() {
        return step == 0 || !schedule.ackAtStepStart(stage) && step == schedule.ackBefore(stage);
      }

      @Override
      public boolean bootstrapped(String rid) {
        return step >= schedule.bootstrappedFrom();
      }

      @Override
      public StorageBackend storageSeenBy(StorageBackend store) {
        return new ScheduledEnvironment.ScriptedStore(store, List.of(1));
      }

      @Override
      public boolean localBatchFull() {
        return false;
      }
    };
  }
}
