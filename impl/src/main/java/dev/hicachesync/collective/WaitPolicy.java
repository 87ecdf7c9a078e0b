package dev.hicachesync.collective;

/**
 * How a member waits for the rest of its group: a learned while actively (spinning, or yielding), then
 * park until the last member to arrive unparks it.
 *
 * <p>Why: a park/unpark pair costs tens of µs (a futex each way and a reschedule), far more than an
 * S1..S7 reduction of a few longs. When every member of a group can run at once (members ≤ cores) the
 * others usually arrive within a µs or two, so a short spin ({@code Thread.onSpinWait}) catches them
 * without a context switch. When they cannot all run at once (more members than cores), a spinning
 * member would keep the core the late member needs; a member then yields instead, which on a machine
 * running little else hands the core straight to another member of the group without a futex.
 *
 * <p>Why adaptive rather than decided from the load average: the load average is not something the
 * process controls (and a benchmark's own earlier rounds inflate it). Instead, how long the active phase
 * may last ({@link Patience}) is learned per member from its own waits, as an adaptive mutex does: it
 * grows when the group completed within the active phase and shrinks (down to none) when the member
 * had to park or a single spin or yield overran it (a loaded machine: the yield handed the core to
 * another process for a time slice). A member that waits in vain soon parks at once, as a lock-based
 * rendezvous would. Every {@link #PROBE_EVERY}-th wait probes the full patience to notice that the
 * machine has become quiet again. A failed spin probe costs at most the patience, but a failed yield probe
 * can lose the core for a whole time slice, so when yielding a failed probe doubles the interval to the
 * next one (up to {@link #MAX_PROBE_EVERY}). Spin probes keep their interval: measured, a member whose
 * patience fell to none during warm-up (JIT compilation) parks at once, so its partner's probes wait out
 * its wake-up; with backed-off probes the pair never found its way back to spinning (see also
 * {@link Patience}). A group that yields also measures, epoch by epoch, whether yielding beats parking at
 * all ({@link WaitModeChooser}).
 *
 * <p>A plain class, not a record: Lincheck's instrumentation cannot take field offsets of records.
 */
final class WaitPolicy {
  /** How a member waits actively before it parks. */
  enum Mode {
    /** {@code Thread.onSpinWait()}: members fit the cores. */
    SPIN,
    /** {@code Thread.yield()}: more members than cores. */
    YIELD,
    /** No active phase: park at once. */
    PARK
  }

  /** Longest active phase, in ns: above this a park costs less than the CPU the wait burns. */
  static final long MAX_PATIENCE_NANOS = Long.getLong("hicache.collective.patienceMicros", 50) * 1_000;
  /**
   * Longest active phase when yielding, in ns. Lower than when spinning: on an idle machine a whole round
   * of 8 members on 2 cores took 8–15 µs, and on a loaded one a yield that returns within a long patience
   * still left the round 3× slower than parking (docs/performance.md).
   */
  static final long MAX_YIELD_PATIENCE_NANOS = Long.getLong("hicache.collective.yieldPatienceMicros", 20) * 1_000;
  /** Shortest non-zero active phase, in ns; below it the member parks at once. */
  static final long MIN_PATIENCE_NANOS = 500;
  /**
   * An overrun takes 1/DECAY off the patience. Measured on 2 cores: halving (as an adaptive mutex does)
   * let a few overruns from jitter (an interrupt, a wake-up on the partner's core) end the spinning of a
   * pair that was otherwise catching each other in about a µs; from the largest patience, 35 overruns in
   * a row still bring it to none on a loaded machine.
   */
  static final int DECAY = 8;
  /** Waits between two probes of the full patience at first (a power of 2). */
  static final int PROBE_EVERY = 64;
  /** Most waits between two probes (a power of 2), reached after failed probes. */
  static final int MAX_PROBE_EVERY = 1024;

  /**
   * {@code -Dhicache.collective.spin=auto|on|off|yield}: force the choice, e.g. to measure; {@code on}
   * spins, {@code yield} yields and {@code off} parks at once, whatever the group's size.
   */
  static final String SPIN = System.getProperty("hicache.collective.spin", "auto");

  final Mode mode;

  private WaitPolicy(Mode mode) {
    this.mode = mode;
  }

  /**
   * Returns the policy for a group of {@code members} threads: spin when they fit the processors this JVM
   * may use, yield otherwise (the learned patience turns either into parking on a loaded machine).
   */
  static WaitPolicy forMembers(int members) {
    return new WaitPolicy(switch (SPIN) {
      case "on" -> Mode.SPIN;
      case "yield" -> Mode.YIELD;
      case "off" -> Mode.PARK;
      default -> members <= Runtime.getRuntime().availableProcessors() ? Mode.SPIN : Mode.YIELD;
    });
  }

  /** Returns a fresh per-member patience. */
  Patience newPatience() {
    return new Patience(mode);
  }

  /**
   * One member's learned patience; owner thread only (no synchronization needed). Two estimates: one for
   * a wait that follows a call in which this member unparked another (its next wait then includes that
   * member's wake-up, several µs) and one for every other wait.
   *
   * <p>Why two: with one estimate, measured on 2 cores, a pair fell into a stable parking regime — a
   * member that parked makes its partner's next wait include its wake-up, that wait overruns a short spin,
   * the partner parks in turn, and both patiences decay to none. Learning the after-wake-up wait apart
   * lets the waker keep spinning through the wake-up, so the pair gets back to spinning on an idle
   * machine, while on a loaded machine both estimates still decay to none.
   */
  static final class Patience {
    final Mode mode;
    private final Estimate plain;
    private final Estimate afterWake;
    private Estimate current;

    Patience(Mode mode) {
      this.mode = mode;
      this.plain = new Estimate(mode);
      this.afterWake = new Estimate(mode);
      this.current = plain;
    }

    /**
     * How long the next wait stays active before it parks, in ns (0: park at once); {@code afterWake}:
     * this member unparked another in its previous call.
     */
    long next(boolean afterWake) {
      if (mode == Mode.PARK) {
        return 0;
      }
      current = afterWake ? this.afterWake : plain;
      return current.next();
    }

    /**
     * Learns from the wait {@link #next} began: {@code waitedNanos} long, ended within its active phase
     * ({@code overran} false) or after parking or overrunning it.
     */
    void learn(boolean overran, long waitedNanos) {
      if (mode != Mode.PARK) {
        current.learn(overran, waitedNanos);
      }
    }

    /** The learned active phase of plain waits, in ns (tests and diagnostics). */
    long nanos() {
      return plain.nanos;
    }

    /** The learned active phase of waits after a wake-up, in ns (tests and diagnostics). */
    long afterWakeNanos() {
      return afterWake.nanos;
    }
  }

  /** One learned active phase, with its probes. */
  static final class Estimate {
    private final Mode mode;
    private final long max;
    private long nanos;
    private int waits;
    private int probeEvery = PROBE_EVERY;
    private boolean probing;

    Estimate(Mode mode) {
      this.mode = mode;
      this.max = mode == Mode.YIELD ? MAX_YIELD_PATIENCE_NANOS : MAX_PATIENCE_NANOS;
      this.nanos = max / 4;
    }

    long next() {
      probing = (++waits & (probeEvery - 1)) == 0;
      return probing ? max : nanos;
    }

    /**
     * Shrinks by 1/{@link #DECAY} on an overrun (to none below {@link #MIN_PATIENCE_NANOS}); a success sets at least twice what
     * the wait took, so that one successful probe after a loaded spell restores a useful spin.
     */
    void learn(boolean overran, long waitedNanos) {
      if (probing && mode == Mode.YIELD) { // a failed spin probe costs at most the patience; a yield, a slice
        probeEvery = overran ? Math.min(MAX_PROBE_EVERY, probeEvery * 2) : PROBE_EVERY;
      }
      if (overran) {
        long less = nanos - nanos / DECAY;
        nanos = less < MIN_PATIENCE_NANOS ? 0 : less;
      } else {
        long twice = Math.max(nanos, waitedNanos) * 2;
        nanos = Math.min(max, Math.max(MIN_PATIENCE_NANOS, twice));
      }
    }
  }
}
