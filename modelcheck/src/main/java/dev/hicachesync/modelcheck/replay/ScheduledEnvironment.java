package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.env.TransferKind;
import dev.hicachesync.sim.environment.Timing;
import dev.hicachesync.storage.ForwardingStorageBackend;
import dev.hicachesync.storage.PageKey;
import dev.hicachesync.storage.StorageBackend;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The replay's seam into the implementation: each rank's {@link Timing}, which the simulator already asks for
 * every rank-local choice, answers from the counterexample ({@link SpecSchedule}) instead of a seed.
 *
 * <ul>
 *   <li>GPU copies: rank r's n-th write and n-th load copy takes exactly as long as the counterexample says, so
 *       that it is done from the step whose checks saw it done in the spec, and not before;
 *   <li>the prefetch thread: it takes its pass in a step iff the spec's thread queries then (or has nothing
 *       queued), and its S7 query finds the leading pages the spec's {@code PfStorageHitQuery} chose (the
 *       rank's view of the store, {@link ScriptedStore}); its outcome reaches the scheduler at once;
 *   <li>storage reads and backups land in the step the spec's {@code StorageReadsPage} and {@code
 *       StorageBackupCompletes} take them, and a read fails where the spec's fails; so do the sidecar pool's
 *       page reads, the spec's {@code StorageReadsSidecarPage};
 *   <li>the admission's rank-local batch-full condition is the spec's {@code BatchFills} "early" choice, and the
 *       domain's full running batch (the admission returns before its loop) its "busy" choice;
 *   <li>the rank's LRU clock is skewed from the step after the spec's {@code ClockSkews}, and its schedule
 *       policy takes the waiting queue newest first from the step after the spec's {@code OrderSkews};
 *   <li>a waiting request is aborted on a rank at the RECV after the spec's {@code AbortArrives} chose it there,
 *       the running one at the RECV after the spec's {@code AbortRunningArrives}.
 * </ul>
 *
 * <p>Why the times hold: in a spec-shaped run a rank's clock is {@code step + 1} at the start of every step (no
 * delays are injected), a copy issued in step s is done at tick {@code s + 1 + 1 + ticks} (the run adds one
 * tick so that no copy completes inside its own step), and the checks of step k see it done iff that tick is at
 * most {@code k + 1}: the copy first seen done in step k gets {@code k - s - 1} ticks. Background I/O issued in
 * step s with {@code L - s} ticks lands at the start of step L ({@code RankEnv.beginStep}), or with 0 ticks in
 * the prefetch-thread phase of step s itself ({@code RankEnv.landDue}). What the trace never completes lands
 * right after the trace's last step; what lies beyond the trace takes no time.
 */
final class ScheduledEnvironment implements Timing.Factory {

  private final SpecSchedule schedule;
  private final boolean abortsPerRank;

  /**
   * The environment of {@code schedule}; {@code abortsPerRank} (bug WTO: each rank's own waiting-timeout clock)
   * aborts a request on the ranks the schedule names it on, else on every rank as the domain's first rank
   * decides it (the fix: the decision is made once and broadcast).
   */
  ScheduledEnvironment(SpecSchedule schedule, boolean abortsPerRank) {
    this.schedule = schedule;
    this.abortsPerRank = abortsPerRank;
  }

  @Override
  public Timing create(long seed, int rank, double readFailure) {
    boolean known = rank < schedule.ranks();
    List<SpecSchedule.Copy> writes = known ? schedule.writes(rank) : List.of();
    List<SpecSchedule.Copy> loads = known ? schedule.loads(rank) : List.of();
    List<SpecSchedule.Read> reads = known ? schedule.reads(rank) : List.of();
    List<SpecSchedule.Read> sidecarReads = known ? schedule.sidecarReads(rank) : List.of();
    List<Integer> backups = known ? schedule.backups(rank) : List.of();
    List<Integer> hits = known ? schedule.hits(rank) : List.of();
    int after = schedule.lastStep() + 2;
    return new Timing() {
      private long step;
      private int writesIssued;
      private int loadsIssued;
      private int readsIssued;
      private int backupsIssued;
      private SpecSchedule.Read lastRead;
      private int sidecarReadsIssued;
      private SpecSchedule.Read lastSidecarRead;

      @Override
      public void beginStep(long s) {
        step = s;
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
        if (kind == TransferKind.STORAGE_READ && pages == 0) {
          return 0; // S7's outcome reaches the scheduler at once, as in the spec
        }
        if (kind == TransferKind.STORAGE_READ) {
          int n = readsIssued++;
          lastRead = n < reads.size() ? reads.get(n) : null;
          return Math.max(0, (lastRead != null ? lastRead.lands() : after) - step);
        }
        if (kind == TransferKind.SIDECAR_READ) {
          int n = sidecarReadsIssued++;
          lastSidecarRead = n < sidecarReads.size() ? sidecarReads.get(n) : null;
          return Math.max(0, (lastSidecarRead != null ? lastSidecarRead.lands() : after) - step);
        }
        if (kind == TransferKind.STORAGE_WRITE) {
          int n = backupsIssued++;
          return Math.max(1, (n < backups.size() ? backups.get(n) : after) - step);
        }
        return 0;
      }

      @Override
      public boolean readFails() {
        return lastRead != null && lastRead.fails();
      }

      @Override
      public boolean sidecarReadFails() {
        return lastSidecarRead != null && lastSidecarRead.fails();
      }

      @Override
      public boolean batchIsFull() {
        return known && schedule.batchFull(rank, step).equals("busy");
      }

      @Override
      public boolean localBatchFull() {
        return known && schedule.batchFull(rank, step).equals("early");
      }

      @Override
      public boolean lruClockSkewed() {
        return known && schedule.clockSkewed(rank, step);
      }

      @Override
      public boolean queueOrderSkewed() {
        return known && schedule.queueOrderSkewed(rank, step);
      }

      @Override
      public boolean abortsRunning(String rid) {
        return known && ("req" + schedule.abortedRunning(rank, step)).equals(rid);
      }

      @Override
      public boolean abortsWaiting(String rid) {
        return known && ("req" + schedule.aborted(abortsPerRank ? rank : 0, step)).equals(rid);
      }

      @Override
      public boolean timeoutFires(String rid, boolean byClock) {
        if (!known) {
          return byClock;
        }
        return rid.startsWith("req") && schedule.timeouts().fired(rank, Integer.parseInt(rid.substring(3)), step);
      }

      @Override
      public boolean prefetchThreadDies() {
        return schedule.deaths().dead(rank, step);
      }

      @Override
      public boolean prefetchPassRuns() {
        // a dead thread's pass is no choice of the schedule: the seam (prefetchThreadDies) makes it do nothing
        return !known || schedule.deaths().dead(rank, step) || schedule.passRuns(rank, step);
      }

      @Override
      public StorageBackend storageSeenBy(StorageBackend store) {
        return new ScriptedStore(store, hits);
      }
    };
  }

  private long ticks(List<SpecSchedule.Copy> copies, int n) {
    if (n >= copies.size()) {
      return 0;
    }
    SpecSchedule.Copy c = copies.get(n);
    int seen = c.seenDone() >= 0 ? c.seenDone() : schedule.lastStep() + 1;
    return Math.max(0, seen - c.issued() - 1);
  }

  /**
   * One rank's view of the L3 store in a replay: its n-th S7 query finds the n-th number of leading pages the
   * counterexample chose (the spec's storage is the environment's: another instance may have written a page),
   * and a page it found is there to read (whether the read succeeds is the schedule's, {@code readFails}).
   * Everything else is the store's. Prefetch and backup threads of one rank: queries come from the one
   * prefetch thread, in order.
   */
  static final class ScriptedStore extends ForwardingStorageBackend {
    private final List<Integer> hits;
    private final Set<PageKey> found = new HashSet<>();
    private int queries;

    ScriptedStore(StorageBackend store, List<Integer> hits) {
      super(store);
      this.hits = hits;
    }

    @Override
    public synchronized int leadingHits(List<PageKey> keys) {
      int n = queries++;
      if (n >= hits.size()) {
        return inner().leadingHits(keys);
      }
      int h = Math.min(keys.size(), hits.get(n));
      found.addAll(keys.subList(0, h));
      return h;
    }

    @Override
    public boolean get(PageKey key, ByteBuffer dst) {
      synchronized (this) {
        if (!found.contains(key)) {
          return inner().get(key, dst);
        }
      }
      inner().get(key, dst); // found by the schedule: there, whatever this run wrote (no bytes move in a replay)
      return true;
    }

    @Override
    public String describe() {
      return "the counterexample's storage over " + inner().describe();
    }
  }
}
