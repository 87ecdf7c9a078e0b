package dev.hicachesync.controller;

import dev.hicachesync.env.ManualTicker;
import dev.hicachesync.env.TransferEvent;

/** Small real controllers and events for the controller's concurrency tests. */
final class ControllerFixtures {
  private ControllerFixtures() {}

  /**
   * Returns a controller with no storage, no sync layers and no environment: enough for its queues and
   * prefetch bookkeeping, which is what the Lincheck tests touch.
   */
  static CacheController controller() {
    ControllerConfig cfg = new ControllerConfig(64, 16, 16, WritePolicy.WRITE_THROUGH,
        PrefetchPolicy.BEST_EFFORT, false, 256, 64, 1, 12, 4, 64L * 1024);
    return new CacheController(cfg, null, null, null, null, null, "tp0pp0");
  }

  /**
   * A copy-completion event driven by its own {@link ManualTicker}: done once the copy engine (another
   * thread) moved that clock to 1, like a CUDA event recorded on a stream.
   */
  static final class CopyEvent implements TransferEvent {
    private final ManualTicker ticker = new ManualTicker();

    /** The copy engine finishes the copy. Any thread; idempotent. */
    void finish() {
      ticker.set(1);
    }

    @Override
    public boolean isDone() {
      return ticker.ticks() >= 1;
    }

    @Override
    public void await() {
      try {
        ticker.awaitTicks(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }
}
