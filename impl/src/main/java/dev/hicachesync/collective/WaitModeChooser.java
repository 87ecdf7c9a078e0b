package dev.hicachesync.collective;

/**
 * A group's choice, when its members outnumber the cores, between yielding and parking while they wait,
 * made by measuring both in turn (issue 13).
 *
 * <p>Why measure: on an idle machine a member that yields hands its core straight to another member of the
 * group, and a round of 4 or 8 members on 2 cores took a fifth of what parking costs. On a machine loaded
 * by other processes it is the other way round (measured at load 30: 3× slower than parking), because the
 * scheduler favours threads that wake from sleep over threads that stayed runnable, so yielding members
 * keep losing the cores to other processes. Neither the load average nor the core count tells which case
 * holds; the group's own rounds do. So the group measures an epoch of {@link #EPOCH} calls yielding, one
 * parking, and keeps the faster for {@link #EXPLOIT_EPOCHS} epochs before it measures again: at most one
 * epoch in {@code EXPLOIT_EPOCHS + 2} runs with the slower way. Parking must win by a quarter: one noisy
 * epoch (JIT compilation, a burst of outside load) should not turn yielding off on an idle machine, where
 * it wins 4–5×.
 *
 * <p>Thread-safety: only the group's first member ({@link #tick}) writes; every member reads
 * {@link #parking} (volatile, written once per epoch at most).
 */
final class WaitModeChooser {
  /** Calls per measured epoch. */
  static final int EPOCH = 128;
  /** Epochs the faster way runs before both are measured again. */
  static final int EXPLOIT_EPOCHS = 32;

  private volatile boolean parking;

  // The first member's thread only.
  private int calls;
  private long epochStart = Long.MIN_VALUE;
  private int phase;
  private long yieldingNanos;

  /** Whether members now park at once instead of yielding. Any thread. */
  boolean parking() {
    return parking;
  }

  /** Counts one completed call of the group's first member, {@code now} from {@code System.nanoTime()}. */
  void tick(long now) {
    if (epochStart == Long.MIN_VALUE) {
      epochStart = now;
      return;
    }
    if (++calls < EPOCH) {
      return;
    }
    long took = now - epochStart;
    epochStart = now;
    calls = 0;
    if (phase == 0) { // a yielding epoch measured: now measure parking
      yieldingNanos = took;
      parking = true;
      phase = 1;
    } else if (phase == 1) { // a parking epoch measured: keep the faster
      parking = took < yieldingNanos - yieldingNanos / 4;
      phase = 2;
    } else if (++phase >= 2 + EXPLOIT_EPOCHS) {
      parking = false;
      phase = 0;
    }
  }
}
