package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.env.TransferKind;
import dev.hicachesync.sim.environment.ForwardingTiming;
import dev.hicachesync.sim.environment.SeededTiming;
import dev.hicachesync.sim.environment.Timing;
import dev.hicachesync.storage.StorageBackend;
import java.util.List;

/**
 * The unified replay's seam into the implementation: each rank's {@link Timing} answers the rank-local choices
 * of a {@code HiCacheUnified.tla} counterexample ({@link UnifiedSchedule}) and asks the seeded timing for the
 * rest (copy and I/O latencies, which a spec-shaped unified run settles before it goes on).
 *
 * <ul>
 *   <li>{@link Timing#abortsWaiting}: the scheduler's waiting-queue abort ({@code RankEngine}'s aborts phase,
 *       {@code _abort_on_waiting_timeout}) aborts the request the spec's {@code SchedAbortCheck} aborted on the
 *       rank, at the same step; per rank under bug WTO (each rank's own clock), else the domain's first rank's
 *       decision on every rank (the fix decides once and broadcasts);
 *   <li>{@link Timing#prefetchPassRuns}: the prefetch thread takes its pass (S7) in the step after the spec's
 *       {@code PfQuery}, and no earlier, until the trace ends; {@link Timing#prefetchPassBeforeEvents}: in the
 *       step itself, right before the event check, where the spec's query comes before the rank's own S123;
 *   <li>{@link Timing#storageSeenBy}: its n-th S7 query finds the pages the spec's n-th {@code PfQuery(r, h)}
 *       found; {@link Timing#storageHitQueryRaises}: a query raises where the spec's {@code PfRaise(r)} is (the
 *       faults {@code pf_raise}, {@code pf_raise_thread_dies} ask before each query);
 *   <li>{@link Timing#localBatchFull}: the admission's rank-local batch-full test ({@code EnvBatchFull});
 *   <li>{@link Timing#backgroundTicks} of an S7 outcome and {@link Timing#settlesPrefetchOutcomes}: the outcome
 *       reaches the scheduler ({@code prefetch_hit_queue.put}) at once, or at the start of the step the spec's
 *       {@code PfPutHit} comes before;
 *   <li>{@link Timing#copyTicks} of a load-back (PD decode's host→device copy): its event is done at the step
 *       whose event check follows the spec's {@code EnvLoadDone} (a spec-shaped unified run with nothing to wait
 *       for moves its clock one tick a step, and ends every copy after its step: {@code
 *       SpecTraces.copiesEndAfterTheStep}), and right after the trace when the trace never completes it;
 *   <li>{@link Timing#backgroundTicks} of a storage write: each backup is acked at the start of the step after the
 *       spec's {@code BackupOk} of that rank;
 *   <li>{@link Timing#backgroundTicks} of a read, {@link Timing#readFails} and {@link
 *       Timing#landsIoBeforeAdmission}: each read lands (or fails) where the spec's {@code PfRead} does.
 * </ul>
 */
final class UnifiedEnvironment implements Timing.Factory {

  private final UnifiedSchedule schedule;
  private final boolean abortsPerRank;

  UnifiedEnvironment(UnifiedSchedule schedule, boolean abortsPerRank) {
    this.schedule = schedule;
    this.abortsPerRank = abortsPerRank;
  }

  @Override
  public Timing create(long seed, int rank, double readFailure) {
    boolean known = rank < schedule.ranks();
    List<Integer> hits = known ? schedule.hits(rank) : List.of();
    int after = schedule.lastStep() + 2;
    return new ForwardingTiming(SeededTiming.factory().create(seed, rank, readFailure)) {
      private long step;
      private int deposits;
      private int readsIssued;
      private UnifiedStorageReads.Read lastRead;
      private int loadsIssued;
      private int backupsIssued;
      private int queries;

      @Override
      public void beginStep(long s) {
        step = s;
        super.beginStep(s);
      }

      @Override
      public long backgroundTicks(TransferKind kind, int pages) {
        if (kind == TransferKind.STORAGE_READ && pages == 0) { // an S7 outcome on its way to the scheduler
          int lands = known ? schedule.deposit(rank, deposits++) : -1;
          return lands < 0 ? 0 : Math.max(0, Math.min(lands, after) - step);
        }
        if (kind == TransferKind.STORAGE_WRITE) { // a backup: acked at the start of the step of the spec's BackupOk
          int lands = known ? schedule.backupLands(rank, backupsIssued++) : Integer.MAX_VALUE;
          return Math.max(0, Math.min(lands, after) - step);
        }
        if (kind == TransferKind.STORAGE_READ) { // a read batch: when the spec's PfRead lands it
          List<UnifiedStorageReads.Read> reads = known ? schedule.reads(rank) : List.of();
          int n = readsIssued++;
          lastRead = n < reads.size() ? reads.get(n) : null;
          return Math.max(0, (lastRead != null ? lastRead.step() : after) - step);
        }
        return super.backgroundTicks(kind, pages);
      }

      @Override
      public long copyTicks(TransferKind kind, int pages) {
        if (kind == TransferKind.HOST_TO_DEVICE && known) { // a load-back: done where the spec's EnvLoadDone is
          int done = schedule.loadDone(rank, loadsIssued++);
          return Math.max(0, Math.min(done, after) - step - 1); // the spec-shaped run adds the step's tick
        }
        return super.copyTicks(kind, pages);
      }

      @Override
      public boolean readFails() {
        return lastRead != null && lastRead.fails();
      }

      @Override
      public boolean landsIoBeforeAdmission() {
        return true; // a read the spec lands before the rank's admission (0 ticks) is there for it
      }

      @Override
      public boolean settlesPrefetchOutcomes() {
        return false; // each outcome lands when backgroundTicks says
      }

      @Override
      public boolean abortsWaiting(String rid) {
        int request = known ? schedule.aborted(abortsPerRank ? rank : 0, step) : 0;
        return request > 0 && ("req" + request).equals(rid);
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
      public boolean storageHitQueryRaises() {
        return known && schedule.raises(rank, queries++);
      }

      @Override
      public boolean localBatchFull() {
        return known && schedule.batchFull(rank, step);
      }
    };
  }
}
