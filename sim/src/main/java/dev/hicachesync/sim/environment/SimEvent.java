package dev.hicachesync.sim.environment;

import dev.hicachesync.env.ManualTicker;
import dev.hicachesync.env.TransferEvent;

/**
 * A simulated GPU copy: done once the rank's clock reaches {@code doneTick}; awaiting it moves the rank's
 * own clock there (the rank blocks on its own stream, which only delays that rank).
 */
final class SimEvent implements TransferEvent {
  private final ManualTicker clock;
  private final long doneTick;

  SimEvent(ManualTicker clock, long doneTick) {
    this.clock = clock;
    this.doneTick = doneTick;
  }

  @Override
  public boolean isDone() {
    return clock.ticks() >= doneTick;
  }

  @Override
  public void await() {
    if (clock.ticks() < doneTick) {
      clock.set(doneTick);
    }
  }

  @Override
  public String toString() {
    return "SimEvent[done at " + doneTick + "]";
  }
}
