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
 * doubles when the group completed within the active phase and halves (down to none) when the member
 * had to park or a single spin or yield overran it (a loaded machine: the yield handed the core to
 * another process for a time slice). A member that waits in vain soon parks at once, as a lock-based
 * rendezvous would. Every so often one wait probes the full patience to notice that the machine has
 * become quiet again; a probe that fails doubles the interval to the next one (up to
 * {@link #MAX_PROBE_EVERY}), so that on a loaded machine the probes cost almost nothing.
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
  /** Shortest non-zero active phase, in ns; below it the member parks at once. */
  static final long MIN_PATIENCE_NANOS = 500;
  /** Waits between two probes of the full patience at first (a power of 2). */
  static final int PROBE_EVERY = 64;
  /** Most waits between two probes (a power of 2), reached after failed probes. */
  static final int MAX_PROBE_EVERY = 4096;

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

  /** One member's learned patience; owner thread only (no synchronization needed). */
  static final class Patience {
    final Mode mode;
    private long nanos;
    private int waits;
    private int probeEvery = PROBE_EVERY;
    private boolean probing;

    Patience(Mode mode) {
      this.mode = mode;
      this.nanos = mode == Mode.PARK ? 0 : MAX_PATIENCE_NANOS / 4;
    }

    /** How long the next wait stays active before it parks, in ns (0: park at once). */
    long next() {
      if (mode == Mode.PARK) {
        return 0;
      }
      probing = (++waits & (probeEvery - 1)) == 0;
      return probing ? MAX_PATIENCE_NANOS : nanos;
    }

    /**
     * Learns from a wait that ended within its active phase ({@code overran} false) or that had to park
     * or overran it.
     */
    void learn(boolean overran) {
      if (probing) {
        probeEvery = overran ? Math.min(MAX_PROBE_EVERY, probeEvery * 2) : PROBE_EVERY;
      }
      if (overran) {
        nanos = nanos / 2 < MIN_PATIENCE_NANOS ? 0 : nanos / 2;
      } else {
        nanos = Math.min(MAX_PATIENCE_NANOS, Math.max(MIN_PATIENCE_NANOS, nanos * 2));
      }
    }

    /** The learned active phase, in ns (tests and diagnostics). */
    long nanos() {
      return nanos;
    }
  }
}
