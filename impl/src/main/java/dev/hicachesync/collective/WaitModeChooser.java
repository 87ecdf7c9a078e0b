package dev.hicachesync.collective;

/**
 * A group's choice between waiting actively (spinning when its members leave a core free, yielding when
 * they fill or outnumber the cores) and parking at once, made by measuring both in turn.
 *
 * <p>Why measure: on an idle machine a spinning member catches its partner within a µs, and a member
 * that yields hands its core straight to another member of the group (a round of 4 or 8 members on 2
 * cores took a fifth of what parking costs). On a machine loaded by other processes it is the other way
 * round (yielding measured at load 30: 3× slower than parking), because the late member is off the cores
 * and the scheduler favours threads that wake from sleep over threads that stayed runnable. Neither the
 * load average nor the core count tells which case holds; the group's own rounds do. So the group
 * measures an epoch of {@link #EPOCH} calls waiting actively, one parking, and keeps the faster for
 * {@link #EXPLOIT_EPOCHS} epochs before it measures again: at most one epoch in
 * {@code EXPLOIT_EPOCHS + 2} runs with the slower way. Parking must win by a quarter: one noisy epoch
 * (JIT compilation, a burst of outside load) should not turn active waiting off on an idle machine, where
 * it wins 4–10×.
 *
 * <p>Thread-safety: only the group's first member ({@link #tick}) writes; every member reads
 * {@link #parking} (volatile, written once per epoch at most).
 */
final class WaitModeChooser {
  /** Calls per epoch (measured active, and between measurements). */
  static final int EPOCH = 128;
  /**
   * Calls of a measured parking epoch, compared per call with an active epoch. Fewer than {@link #EPOCH}:
   * where active waiting wins, a parked call costs about ten active ones (2 ranks, idle machine), and the
   * parking measurements were the only parks left.
   */
  static final int PARK_EPOCH = 32;
  /**
   * Epochs the faster way runs before both are measured again, at first and after the choice changed.
   * Short, because the first measurement is often wrong: its active epoch runs while the JIT compiles
   * the wait (measured under {@code chrt -f 1}: a 2-rank group chose parking at first in 4 of 6 fresh
   * groups, and with a first span of 32 epochs it parked through the bench's whole 4,000 calls).
   */
  static final int EXPLOIT_EPOCHS = 4;
  /**
   * Most epochs between two measurements: each measurement that confirms the choice doubles the span up
   * to this. Why: at 2 ranks on an idle machine a parking epoch costs about ten active ones (12 µs against
   * 1 µs a call), so measuring once per 34 epochs added a third of a µs to every call on average
   * (0.029 parks per call, measured); at 512 the measuring costs under 1 %, and a machine that became
   * loaded is noticed within 512 epochs (a second or so of parked calls).
   */
  static final int MAX_EXPLOIT_EPOCHS = 512;

  private volatile boolean parking;

  // The first member's thread only.
  private int calls;
  private long epochStart = Long.MIN_VALUE;
  private int phase;
  private long activeNanos;
  private int exploitEpochs = EXPLOIT_EPOCHS;
  /** The choice of the last measurement (meaningful once {@code decided}). */
  private boolean lastChoice;
  private boolean decided;

  /** Whether members now park at once instead of waiting actively. Any thread. */
  boolean parking() {
    return parking;
  }

  /** Counts one completed call of the group's first member, {@code now} from {@code System.nanoTime()}. */
  void tick(long now) {
    if (epochStart == Long.MIN_VALUE) {
      epochStart = now;
      return;
    }
    if (++calls < (phase == 1 ? PARK_EPOCH : EPOCH)) {
      return;
    }
    long took = now - epochStart;
    epochStart = now;
    calls = 0;
    if (phase == 0) { // an active epoch measured: now measure parking
      activeNanos = took;
      parking = true;
      phase = 1;
    } else if (phase == 1) { // a (shorter) parking epoch measured: keep the faster per call
      long parkedPerEpoch = took * (EPOCH / PARK_EPOCH);
      boolean park = parkedPerEpoch < activeNanos - activeNanos / 4;
      exploitEpochs = decided && park == lastChoice ? Math.min(MAX_EXPLOIT_EPOCHS, 2 * exploitEpochs) : EXPLOIT_EPOCHS;
      decided = true;
      lastChoice = park;
      parking = park;
      phase = 2;
    } else if (++phase >= 2 + exploitEpochs) {
      parking = false;
      phase = 0;
    }
  }
}
