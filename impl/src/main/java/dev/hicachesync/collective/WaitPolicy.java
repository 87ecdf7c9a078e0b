package dev.hicachesync.collective;

/**
 * How a member waits for the rest of its group: a short spin, then park.
 *
 * <p>Why: a park/unpark pair costs tens of µs (a futex each way and a reschedule), far more than an
 * S1..S7 reduction of a few longs. When every member of a group can run at once (members ≤ cores) the
 * others usually arrive within a few µs, so a short spin ({@code Thread.onSpinWait}) catches them without
 * a context switch. When they cannot all run, spinning only steals the core a late member needs, so the
 * member parks at once. Not yielding: measured on a loaded machine (docs/performance.md), a yield hands
 * the core to other processes for a whole time slice, and a wait that yields costs more than one that
 * parks and is unparked.
 *
 * <p>Why adaptive: how long the spin may last ({@link Patience}) is learned per member, as an adaptive
 * mutex does: it doubles when the group completed while the member was still spinning and halves when
 * the member had to park anyway (a loaded machine, a slow rank), so a member that keeps spinning in vain
 * soon parks at once, as a lock-based rendezvous would. Every {@link #PROBE_EVERY}-th wait spins for the
 * full patience, so that the member notices when the machine has become quiet again.
 *
 * <p>A plain class, not a record: Lincheck's instrumentation cannot take field offsets of records.
 */
final class WaitPolicy {
  /** Longest spin, in ns: above this a park costs less than the CPU the wait burns. */
  static final long MAX_PATIENCE_NANOS = Long.getLong("hicache.collective.patienceMicros", 50) * 1_000;
  /** Shortest spin, in ns, when the group fits the cores. */
  static final long MIN_PATIENCE_NANOS = 500;
  /** Every this many waits (a power of 2), one uses the full patience. */
  static final int PROBE_EVERY = 64;

  private final boolean spin;

  private WaitPolicy(boolean spin) {
    this.spin = spin;
  }

  /**
   * Returns the policy for a group of {@code members} threads on this machine: spin only when the members
   * fit the cores that other work leaves idle (cores minus the load average when the group is made).
   * Why the load: measured on 2 cores shared with ~20 busy threads (docs/performance.md), a member that
   * spins takes one of the two cores from the member it waits for.
   */
  static WaitPolicy forMembers(int members) {
    return switch (SPIN) {
      case "on" -> new WaitPolicy(true);
      case "off" -> new WaitPolicy(false);
      default -> new WaitPolicy(members <= idleCores());
    };
  }

  /** {@code -Dhicache.collective.spin=auto|on|off}: force the choice, e.g. to measure on a dedicated machine. */
  static final String SPIN = System.getProperty("hicache.collective.spin", "auto");

  /** Cores minus the one-minute load average (the load is taken as 0 where the OS does not report it). */
  static int idleCores() {
    int cores = Runtime.getRuntime().availableProcessors();
    double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    return load < 0 ? cores : cores - (int) Math.ceil(load);
  }

  /** Returns a fresh per-member patience: none at all when the group does not fit the cores. */
  Patience newPatience() {
    return new Patience(spin);
  }

  /** One member's learned patience; owner thread only (no synchronization needed). */
  static final class Patience {
    private final boolean spin;
    private long nanos = MAX_PATIENCE_NANOS / 4;
    private int waits;

    Patience(boolean spin) {
      this.spin = spin;
    }

    /** How long the next wait spins before it parks, in ns (0: park at once). */
    long next() {
      if (!spin) {
        return 0;
      }
      return (++waits & (PROBE_EVERY - 1)) == 0 ? MAX_PATIENCE_NANOS : nanos;
    }

    /** Learns from a wait that ended while active ({@code parked} false) or after parking. */
    void learn(boolean parked) {
      nanos = parked ? Math.max(MIN_PATIENCE_NANOS, nanos / 2) : Math.min(MAX_PATIENCE_NANOS, nanos * 2);
    }
  }
}
