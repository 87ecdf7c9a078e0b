package dev.hicachesync.collective;

/**
 * How a member waits for the rest of its group: actively (spinning, or yielding) for a bounded while,
 * then park until the last member to arrive unparks it; whether the group waits actively at all is
 * measured by its {@link WaitModeChooser}.
 *
 * <p>Why: a park/unpark pair costs tens of µs (a futex each way and a reschedule), far more than an
 * S1..S7 reduction of a few longs. When every member of a group can run at once with a core to spare the
 * others usually arrive within a µs or two, so a short spin ({@code Thread.onSpinWait}) catches them
 * without a context switch. When they cannot all run at once (as many members as cores or more), a
 * spinning member would keep the core the late member needs; a member then yields instead, which on a
 * machine running little else hands the core straight to another member of the group without a futex.
 * A group exactly as large as the cores yields too: the JIT, the collector and the process's other
 * threads need a core now and then, and the member they displace is then the one its spinning partner
 * waits for. Measured on 2 cores (1 Dec 2026, 03:29–03:33 UTC, load 0.8–1.5, {@code bench --only
 * collectives}, docs/explanation/concurrency.md): a 2-rank all-reduce took 3.05, 13.6, 13.0 and 8.57 µs spinning and
 * 1.62, 2.21 and 1.86 µs yielding.
 *
 * <p>Why a fixed bound rather than one learned per member (the design before 1 Dec 2026): measured on 2
 * cores, a member's own waits are a bad guide. Once one member parked, its partner's next wait includes
 * that member's wake-up (10–50 µs on this VM), overran a learned spin, and the partner parked in turn; the
 * pair's patience decayed towards none and stayed low (under {@code chrt -f 1}, 2 ranks: 0.2–0.6 parks
 * per call in some groups and 2.1–4.0 µs per all-reduce, against 1.1–1.3 µs in groups that kept spinning;
 * on a quiet machine 2.2–6.8 µs). With a bound above a wake-up, the member that spins
 * through its partner's wake-up brings the pair back to spinning within a call. Whether spinning pays at
 * all (on a loaded machine it does not: the late member is off the cores) is the group's choice, made by
 * timing epochs of calls each way ({@link WaitModeChooser}); an active wait that is not caught within the
 * bound costs at most the bound more than parking at once (a 2-competitive spin for the bound ≈ a park).
 */
final class WaitPolicy {
  /** How a member waits actively before it parks. */
  enum Mode {
    /** {@code Thread.onSpinWait()}: fewer members than cores. */
    SPIN,
    /** {@code Thread.yield()}: as many members as cores, or more. */
    YIELD,
    /** No active phase: park at once. */
    PARK
  }

  /**
   * Longest spin, in ns: above a wake-up of a parked partner (so a spinning member catches it) and about
   * what a park round costs when the partner is off the cores (so a spin that fails costs at most that).
   */
  static final long MAX_PATIENCE_NANOS = Long.getLong("hicache.collective.patienceMicros", 50) * 1_000;
  /**
   * Longest yielding wait, in ns: a millisecond, far above a round's own cost (8–15 µs for 8 members on 2
   * cores, idle machine), because a yielding member gives way to every runnable member of its own process,
   * and only parks once the wait outlasts the rank work that may lie between two collectives. Members yield
   * only when they fill or outnumber the cores, and there a member that parks too early leaves its core idle
   * while its late peer works, and then costs that peer a futex wake-up (the 4-rank replay with 20 µs and
   * with a millisecond: docs/reference/measurements.md, "Yielding waits of up to 1 ms"). On a machine that
   * other processes load, where yielding loses, the group's chooser parks instead.
   */
  static final long MAX_YIELD_PATIENCE_NANOS = Long.getLong("hicache.collective.yieldPatienceMicros", 1_000) * 1_000;

  /**
   * {@code -Dhicache.collective.spin=auto|on|off|yield}: force the choice, e.g. to measure; {@code on}
   * spins, {@code yield} yields and {@code off} parks at once, whatever the group's size.
   */
  static final String SPIN = System.getProperty("hicache.collective.spin", "auto");

  private final Mode mode;

  private WaitPolicy(Mode mode) {
    this.mode = mode;
  }

  /** How a waiter of this group waits. */
  Mode mode() {
    return mode;
  }

  /**
   * Returns the policy for a group of {@code members} threads: spin when they leave a processor this JVM
   * may use free, yield otherwise (the group's chooser turns either into parking on a loaded machine).
   */
  static WaitPolicy forMembers(int members) {
    return new WaitPolicy(switch (SPIN) {
      case "on" -> Mode.SPIN;
      case "yield" -> Mode.YIELD;
      case "off" -> Mode.PARK;
      default -> members < Runtime.getRuntime().availableProcessors() ? Mode.SPIN : Mode.YIELD;
    });
  }

  /** How long a member waits actively before it parks, in ns (0: park at once). */
  long activeNanos() {
    return switch (mode) {
      case SPIN -> MAX_PATIENCE_NANOS;
      case YIELD -> MAX_YIELD_PATIENCE_NANOS;
      case PARK -> 0;
    };
  }
}
