package dev.hicachesync.collective;

import dev.hicachesync.collective.WaitPolicy.Mode;
import java.util.List;

/**
 * A group's choice of how its members wait: one of its policy's active ways (spinning, yielding) or
 * parking at once, made by measuring each in turn (issue 13).
 *
 * <p>Why measure: on an idle machine a spinning member catches its partner within a µs, and a member
 * that yields hands its core straight to another member of the group (a round of 4 or 8 members on 2
 * cores took a fifth of what parking costs). On a machine loaded by other processes it is the other way
 * round (yielding measured at load 30: 3× slower than parking), because the late member is off the cores
 * and the scheduler favours threads that wake from sleep over threads that stayed runnable. Neither the
 * load average nor the core count tells which case holds; the group's own rounds do. So the group
 * measures an epoch of {@link #EPOCH} calls per active way, one parking, and keeps the fastest for
 * {@link #EXPLOIT_EPOCHS} epochs before it measures again. Parking must win by a quarter: one noisy epoch
 * (JIT compilation, a burst of outside load) should not turn active waiting off on an idle machine, where
 * it wins 4–10×. A challenger's epoch ends as soon as it has taken as long as the time it must beat: it
 * has lost whatever its other calls would cost, so the choice is the same and the slow way runs less.
 *
 * <p>Why two active ways for a group exactly as large as the cores: which of spinning and yielding wins
 * there depends on the machine, not on the group. On the 2-core VM of 1 Dec 2026 a 2-rank all-reduce took
 * 3.1–13.6 µs spinning and 1.6–2.2 µs yielding in the morning (the JIT and the process's other threads
 * took a rank's core now and then, and its partner spun through the bound), and 0.7–1.0 µs spinning
 * against 2.2–2.9 µs yielding on the VM of the evening (the two rank threads kept to their cores, and a
 * yield only added a syscall per wait; {@code bench --only collectives}, docs/performance.md). The first
 * way is the policy's default; another must win by a quarter too, so that noise does not flip the choice.
 *
 * <p>Thread-safety: only the group's first member ({@link #tick}) writes; every member reads
 * {@link #mode} (volatile, written once per epoch at most).
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
   * Epochs the fastest way runs before all are measured again, at first and after the choice changed.
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

  /** The active ways measured, the policy's default first; never {@link Mode#PARK}. */
  private final Mode[] active;
  /** How members wait now. */
  private volatile Mode mode;

  // The first member's thread only.
  private int calls;
  private long epochStart = Long.MIN_VALUE;
  /** 0..active.length-1: measuring active[phase]; active.length: measuring parking; then exploiting. */
  private int phase;
  /** The fastest active way measured so far in this measurement, and its epoch's time. */
  private int best;
  private long bestNanos;
  private int exploitEpochs = EXPLOIT_EPOCHS;
  /** The choice of the last measurement (meaningful once {@code decided}). */
  private Mode lastChoice;
  private boolean decided;

  /** A chooser between one active way of waiting and parking (which active way does not matter to it). */
  WaitModeChooser() {
    this(List.of(Mode.SPIN));
  }

  /** A chooser between {@code activeWays} (the default first) and parking. */
  WaitModeChooser(List<Mode> activeWays) {
    if (activeWays.isEmpty() || activeWays.contains(Mode.PARK)) {
      throw new IllegalArgumentException("active ways of waiting expected, got " + activeWays);
    }
    this.active = activeWays.toArray(new Mode[0]);
    this.mode = active[0];
  }

  /** The active ways this chooser measures, the default first. */
  List<Mode> activeWays() {
    return List.of(active);
  }

  /** How members wait now. Any thread. */
  Mode mode() {
    return mode;
  }

  /** Whether members now park at once instead of waiting actively. Any thread. */
  boolean parking() {
    return mode == Mode.PARK;
  }

  /** Counts one completed call of the group's first member, {@code now} from {@code System.nanoTime()}. */
  void tick(long now) {
    if (epochStart == Long.MIN_VALUE) {
      epochStart = now;
      return;
    }
    int measuring = active.length; // the phase that measures parking
    calls++;
    if (phase > measuring) { // running the choice: count epochs until the next measurement
      if (calls < EPOCH) {
        return;
      }
      calls = 0;
      epochStart = now;
      if (++phase >= measuring + 1 + exploitEpochs) {
        phase = 0;
        mode = active[0];
      }
      return;
    }
    boolean parkPhase = phase == measuring;
    long took = now - epochStart;
    long perEpoch = parkPhase ? took * (EPOCH / PARK_EPOCH) : took; // a parking epoch is shorter
    // A challenger that already took as long as the bar cannot win whatever its remaining calls cost:
    // its measurement ends here with the same outcome. Why: the losing way is the slow one, up to 60× the
    // winner per call (spinning while both members share a core: 60 µs a call against 1-5 yielding).
    boolean lost = phase > 0 && perEpoch >= bestNanos - bestNanos / 4;
    if (!lost && calls < (parkPhase ? PARK_EPOCH : EPOCH)) {
      return;
    }
    calls = 0;
    epochStart = now;
    if (!parkPhase) { // an active way measured: measure the next, then parking
      if (phase == 0 || !lost) { // the default, or a challenger that won by a quarter
        best = phase;
        bestNanos = took;
      }
      phase++;
      mode = phase < measuring ? active[phase] : Mode.PARK;
      return;
    }
    // Parking measured: it won by a quarter unless it lost on the way.
    Mode choice = lost ? active[best] : Mode.PARK;
    exploitEpochs = decided && choice == lastChoice ? Math.min(MAX_EXPLOIT_EPOCHS, 2 * exploitEpochs) : EXPLOIT_EPOCHS;
    decided = true;
    lastChoice = choice;
    mode = choice;
    phase++;
  }
}
