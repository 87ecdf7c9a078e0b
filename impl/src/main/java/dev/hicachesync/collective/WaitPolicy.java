package dev.hicachesync.collective;

/**
 * How a member waits for the rest of its group: spin, then yield, then park.
 *
 * <p>Why: a park/unpark pair costs tens of µs (a futex each way and a reschedule), far more than an
 * S1..S7 reduction of a few longs. When every member of a group can run at once (members ≤ cores) the
 * others usually arrive within a few µs, so a short spin ({@code Thread.onSpinWait}) catches them without
 * a context switch. When they cannot all run, spinning only steals the core a late member needs, so the
 * member yields instead for a while (which hands the core to a runnable member), and parks after that so
 * that a long wait (a slow rank, a deadlock before the watchdog fires) costs no CPU.
 *
 * <p>A plain class, not a record: Lincheck's instrumentation cannot take field offsets of records.
 */
final class WaitPolicy {
  /** Busy polls when the group fits the cores: a few µs to a few tens of µs, depending on the CPU's pause. */
  static final int SPINS = Integer.getInteger("hicache.collective.spins", 2_000);
  /** Yield phase: long enough for an oversubscribed group to come round, short enough to cost little. */
  static final long YIELD_NANOS = Long.getLong("hicache.collective.yieldMicros", 200) * 1_000;

  private final int spins;
  private final long yieldNanos;

  private WaitPolicy(int spins, long yieldNanos) {
    this.spins = spins;
    this.yieldNanos = yieldNanos;
  }

  /** Busy polls before the first yield (0 when the group does not fit the cores). */
  int spins() {
    return spins;
  }

  /** How long after arrival the member keeps yielding before it parks. */
  long yieldNanos() {
    return yieldNanos;
  }

  /** Returns the policy for a group of {@code members} threads on this machine's cores. */
  static WaitPolicy forMembers(int members) {
    boolean fits = members <= Runtime.getRuntime().availableProcessors();
    return new WaitPolicy(fits ? SPINS : 0, YIELD_NANOS);
  }
}
