package dev.hicachesync.env;

/**
 * How many ticks a simulated transfer takes; the simulator's seeded per-rank skew lives behind it.
 *
 * <p>Called on the thread that issues the transfer; implementations must be deterministic for a given
 * call sequence (a seeded random source per rank, never wall time).
 */
@FunctionalInterface
public interface LatencyModel {

  /** Returns the latency ≥ 0 in ticks of moving {@code pages} pages of {@code kind} on {@code rank}. */
  long latencyTicks(TransferKind kind, int rank, int pages);

  /** A model where every transfer takes {@code ticks} ticks whatever its size. */
  static LatencyModel constant(long ticks) {
    if (ticks < 0) {
      throw new IllegalArgumentException("latency must be >= 0, got " + ticks);
    }
    return (kind, rank, pages) -> ticks;
  }

  /** A model where every transfer is done as soon as it is issued. */
  static LatencyModel zero() {
    return constant(0L);
  }
}
