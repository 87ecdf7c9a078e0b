package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.env.TransferKind;
import dev.hicachesync.sim.environment.Timing;
import dev.hicachesync.storage.StorageBackend;
import java.util.List;

/**
 * The pipeline replay's seam into the implementation: each rank's {@link Timing} answers from a {@code
 * HiCachePipeline.tla} counterexample ({@link PipelineSchedule}).
 *
 * <ul>
 *   <li>{@link Timing#copyTicks}: rank r's n-th write (device to host) and n-th load (host to device) copy is done
 *       from the step whose event check first saw it done in the spec, and not before (the same arithmetic as
 *       {@link ScheduledEnvironment}: a copy issued in step s and first seen in step k takes {@code k - s - 1}
 *       ticks); a copy the trace never completes is done right after the trace's last step;
 *   <li>{@link Timing#lruClockSkewed}: the rank's clock orders LRU timestamps the other way from the step after
 *       the spec's {@code ClockSkews} (fault {@code local_lru_clock});
 *   <li>{@link Timing#storageSeenBy}: the rank's n-th S7 query finds the leading pages the spec's {@code
 *       PrefetchThreadQueries} chose for it (its stage's storage, {@link ScheduledEnvironment.ScriptedStore}); S7's
 *       outcome reaches the scheduler at once, and a storage read lands after the trace's last step;
 *   <li>{@link Timing#prefetchPassRuns}, {@link Timing#prefetchPassBeforeEvents}: the prefetch thread passes where
 *       the spec's queries: at the boundary before the rank's next step, or after its RECV when the spec's
 *       scheduler waits in RECV (the order of S7 and the scheduler's calls on a shared group, knob pf_shared_group);
 *   <li>{@link Timing#timeoutFires}: request i's prefetch has timed out on the rank from the step after the spec's
 *       {@code TimeoutFires} for it, and not before.
 * </ul>
 * The implementation's steps count from 0, the spec's from 1: the implementation's step s is the spec's s + 1.
 */
final class PipelineEnvironment implements Timing.Factory {

  private final PipelineSchedule schedule;

  PipelineEnvironment(PipelineSchedule schedule) {
    this.schedule = schedule;
  }

  @Override
  public Timing create(long seed, int rank, double readFailure) {
    boolean known = rank < schedule.ranks();
    List<PipelineSchedule.Copy> writes = known ? schedule.writes(rank) : List.of();
    List<PipelineSchedule.Copy> loads = known ? schedule.loads(rank) : List.of();
    return new Timing() {
      private long specStep;
      private int writesIssued;
      private int loadsIssued;

      @Override
      public void beginStep(long s) {
        specStep = s + 1;
      }

      @Override
      public long copyTicks(TransferKind kind, int pages) {
        return switch (kind) {
          case DEVICE_TO_HOST -> ticks(writes, writesIssued++);
          case HOST_TO_DEVICE -> ticks(loads, loadsIssued++);
          default -> 0;
        };
      }

      @Override
      public long backgroundTicks(TransferKind kind, int pages) {
        if (kind == TransferKind.STORAGE_READ && pages > 0) {
          return Math.max(0, schedule.lastStep() + 2 - specStep + 1); // a read lands after the trace's last step
        }
        return 0; // S7's outcome reaches the scheduler at once, as in the spec
      }

      @Override
      public boolean readFails() {
        return false;
      }

      @Override
      public boolean localBatchFull() {
        return false;
      }

      @Override
      public boolean lruClockSkewed() {
        return known && schedule.clockSkewed(rank, specStep);
      }

      @Override
      public boolean prefetchPassRuns() {
        return !known || schedule.passRuns(rank, specStep);
      }

      @Override
      public boolean prefetchPassBeforeEvents() {
        return known && schedule.passAfterRecv(rank, specStep);
      }

      @Override
      public boolean timeoutFires(String rid, boolean byClock) {
        if (!known || specStep > schedule.lastStep() || !rid.startsWith("req")) {
          return byClock; // beyond the trace: the rank's own clock
        }
        return schedule.timedOut(rank, Integer.parseInt(rid.substring(3)), specStep);
      }

      @Override
      public StorageBackend storageSeenBy(StorageBackend store) {
        return new ScheduledEnvironment.ScriptedStore(store, known ? schedule.hits(rank) : List.of());
      }
    };
  }

  private long ticks(List<PipelineSchedule.Copy> copies, int n) {
    if (n >= copies.size()) {
      return 0;
    }
    PipelineSchedule.Copy c = copies.get(n);
    int seen = c.seenDone() >= 0 ? c.seenDone() : schedule.lastStep() + 1;
    return Math.max(0, seen - c.issued() - 1);
  }
}
