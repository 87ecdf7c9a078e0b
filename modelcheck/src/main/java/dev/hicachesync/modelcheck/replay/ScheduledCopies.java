package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.env.TransferKind;
import dev.hicachesync.sim.environment.Timing;
import java.util.List;

/**
 * The replay's one seam into the implementation: a {@link Timing} that makes rank r's n-th write and n-th
 * load copy take exactly as long as the counterexample says, so that it is done from the step whose checks
 * saw it done in the spec, and not before.
 *
 * <p>Why this holds: in a spec-shaped run a rank's clock is {@code step + 1} at the start of every step (no
 * delays are injected), a copy issued in step s is done at tick {@code s + 1 + 1 + ticks} (the run adds one
 * tick so that no copy completes inside its own step), and the checks of step k see it done iff that tick is
 * at most {@code k + 1}. So the copy first seen done in step k gets {@code k - s - 1} ticks. A copy the trace
 * never completes is done right after the trace's last step; copies beyond the trace's take no time.
 */
final class ScheduledCopies implements Timing.Factory {

  private final SpecSchedule schedule;

  ScheduledCopies(SpecSchedule schedule) {
    this.schedule = schedule;
  }

  @Override
  public Timing create(long seed, int rank, double readFailure) {
    List<SpecSchedule.Copy> writes = rank < schedule.ranks() ? schedule.writes(rank) : List.of();
    List<SpecSchedule.Copy> loads = rank < schedule.ranks() ? schedule.loads(rank) : List.of();
    return new Timing() {
      private int writesIssued;
      private int loadsIssued;

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
        return 0;
      }

      @Override
      public boolean readFails() {
        return false;
      }

      @Override
      public boolean localBatchFull() {
        return false;
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
}
