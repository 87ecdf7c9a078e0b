package dev.hicachesync.bench;

/**
 * Times a repeated operation: warm-up first (so the JIT has compiled the path), then as many repetitions
 * as fit a time budget, and the cost per repetition.
 */
final class Clock {
  /** One repetition of the measured work; returns a value that is folded into a sink so it is not elided. */
  @FunctionalInterface
  interface Op {
    long run() throws Exception;
  }

  private static volatile long sink;

  private final long warmupNanos;
  private final long measureNanos;

  Clock(long warmupNanos, long measureNanos) {
    this.warmupNanos = warmupNanos;
    this.measureNanos = measureNanos;
  }

  long measureNanos() {
    return measureNanos;
  }

  /** Returns the mean nanoseconds per {@code op} over the measuring window. */
  double nanosPerOp(Op op) throws Exception {
    loop(op, warmupNanos);
    return loop(op, measureNanos);
  }

  private static double loop(Op op, long budget) throws Exception {
    long acc = 0;
    long n = 0;
    long start = System.nanoTime();
    long now;
    do {
      for (int i = 0; i < 16; i++) {
        acc += op.run();
      }
      n += 16;
      now = System.nanoTime();
    } while (now - start < budget);
    sink += acc;
    return (now - start) / (double) n;
  }
}
