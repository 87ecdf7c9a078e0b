package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.controller.ControllerFaults;
import dev.hicachesync.env.TransferKind;
import dev.hicachesync.sim.environment.ForwardingTiming;
import dev.hicachesync.sim.environment.SeededTiming;
import dev.hicachesync.sim.environment.Timing;
import dev.hicachesync.storage.StorageBackend;
import java.util.List;

/**
 * The pipeline replay's seam into the implementation: each rank's {@link Timing} answers the rank-local choices of
 * a {@code HiCacheUnifiedPipeline.tla} counterexample ({@link UnifiedPipelineSchedule}), on every stage, and asks the
 * seeded timing for the rest.
 *
 * <ul>
 *   <li>{@link Timing#prefetchPassRuns} and {@link Timing#prefetchPassBeforeEvents}: the prefetch thread passes
 *       (S7, over its stage's grid and the pp group) where the spec's {@code PfQuery} of that rank is placed;
 *   <li>{@link Timing#storageSeenBy}: its n-th S7 query finds the pages the spec's n-th {@code PfQuery(r, h)}
 *       found;
 *   <li>{@link Timing#backgroundTicks} of an S7 outcome and {@link Timing#settlesPrefetchOutcomes}: the outcome
 *       reaches the scheduler ({@code prefetch_hit_queue.put}) where the spec's {@code PfPutHit} is placed. A
 *       later stage under the PP drain faults queues each outcome after {@link
 *       ControllerFaults#LATE_DEPOSIT_QUERIES} chained latencies ({@code lateDeposits}): the first carries the
 *       schedule's delay, the others none;
 *   <li>{@link Timing#backgroundTicks} of a storage write (knob {@code backup}): the rank's n-th backup is acked
 *       at the start of the step where the spec's n-th {@code BackupOk} of that rank is placed, or after the trace.
 * </ul>
 */
final class UnifiedPipelineEnvironment implements Timing.Factory {

  private final UnifiedPipelineSchedule schedule;
  private final int stageSize;
  /** Whether the later stages' outcomes are chained ({@link ControllerFaults#lateDeposits()}). */
  private final boolean lateDeposits;

  UnifiedPipelineEnvironment(UnifiedPipelineSchedule schedule, int stageSize, boolean lateDeposits) {
    this.schedule = schedule;
    this.stageSize = stageSize;
    this.lateDeposits = lateDeposits;
  }

  @Override
  public Timing create(long seed, int rank, double readFailure) {
    boolean known = rank < schedule.ranks();
    List<Integer> hits = known ? schedule.hits(rank) : List.of();
    int chain = lateDeposits && rank >= stageSize ? ControllerFaults.LATE_DEPOSIT_QUERIES : 1;
    int after = schedule.lastStep() + 2;
    return new ForwardingTiming(SeededTiming.factory().create(seed, rank, readFailure)) {
      private long step;
      private int depositCalls;
      private int readCalls;
      private int backupCalls;

      @Override
      public void beginStep(long s) {
        step = s;
        super.beginStep(s);
      }

      @Override
      public long backgroundTicks(TransferKind kind, int pages) {
        if (kind == TransferKind.STORAGE_READ && pages == 0) { // an S7 outcome on its way to the scheduler
          int call = depositCalls++;
          if (call % chain != 0) {
            return 0; // the rest of a late stage's chain: the schedule's delay is on its first link
          }
          int lands = known ? schedule.deposit(rank, call / chain) : -1;
          return lands < 0 ? 0 : Math.max(0, Math.min(lands, after) - step);
        }
        if (kind == TransferKind.STORAGE_WRITE) { // a backup (knob backup): acked where the spec's BackupOk is
          int lands = known ? schedule.backupLands(rank, backupCalls++) : Integer.MAX_VALUE;
          return Math.max(0, Math.min(lands, after) - step);
        }
        if (kind == TransferKind.STORAGE_READ) { // a read the trace has lands at once (TicketEvents), a later one after it
          return known && readCalls++ < schedule.tickets().reads(rank) ? 0 : Math.max(0, after - step);
        }
        return super.backgroundTicks(kind, pages);
      }

      @Override
      public boolean comparesStepAtNextRecv() {
        return true; // the spec sees a step's divergence before the next step's event check
      }

      @Override
      public long copyTicks(TransferKind kind, int pages) {
        // a backup's synchronous device-to-host copy (knob backup, folded into the admission by the spec) takes
        // no time, so the rank's clock stays at its step and each backup lands where the schedule says
        return kind == TransferKind.DEVICE_TO_HOST ? 0 : super.copyTicks(kind, pages);
      }

      @Override
      public boolean readFails() {
        return known && schedule.tickets().readFails(rank, readCalls - 1); // PfRead(r, k) with k below the hit
      }

      @Override
      public boolean landsIoBeforeAdmission() {
        return true;
      }

      @Override
      public boolean settlesPrefetchOutcomes() {
        return false; // each outcome lands when backgroundTicks says
      }

      @Override
      public boolean prefetchPassRuns() {
        return !known || schedule.passRuns(rank, step);
      }

      @Override
      public boolean prefetchPassBeforeEvents() {
        return known && schedule.passBeforeEvents(rank, step);
      }

      @Override
      public StorageBackend storageSeenBy(StorageBackend store) {
        return new ScheduledEnvironment.ScriptedStore(store, hits);
      }

      @Override
      public boolean localBatchFull() {
        return false;
      }
    };
  }
}
