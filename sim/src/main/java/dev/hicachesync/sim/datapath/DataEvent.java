package dev.hicachesync.sim.datapath;

import dev.hicachesync.env.TransferEvent;

/**
 * A copy whose completion the rank's {@link Timing} decides ({@code timing}) and whose bytes a device tier
 * moves ({@code copy}): once {@code timing} is done, the copy is waited for and its destination checked.
 *
 * <p>Why the simulator's event leads: the data path must not change when anything completes, or runs with
 * and without it would differ; a real GPU copy that is slower is simply waited for. Rank thread only.
 */
final class DataEvent implements TransferEvent {
  private final TransferEvent timing;
  private final TransferEvent copy;
  private final Runnable check;
  private boolean finished;

  DataEvent(TransferEvent timing, TransferEvent copy, Runnable check) {
    this.timing = timing;
    this.copy = copy;
    this.check = check;
  }

  @Override
  public boolean isDone() {
    if (!timing.isDone()) {
      return false;
    }
    finish();
    return true;
  }

  @Override
  public void await() {
    timing.await();
    finish();
  }

  private void finish() {
    if (!finished) {
      finished = true;
      copy.await(); // a simulated copy moves its bytes here, so a source reused meanwhile shows as corruption
      check.run();
    }
  }

  @Override
  public String toString() {
    return "DataEvent[" + timing + ", " + copy + (finished ? ", checked" : "") + "]";
  }
}
