package dev.hicachesync.workload;

/**
 * How a trace's wall-clock timestamps become simulator steps, the simulated clock (one tick per step).
 *
 * <p>Why a fixed step length: the simulator's clock advances one tick per scheduler step, and its copy,
 * I/O and prefetch-timeout latencies are counted in ticks; mapping trace milliseconds to steps at a fixed
 * rate is what lets the trace's arrival gaps drive those clocks. Two requests never arrive in the same
 * step: a burst (the conversation trace has several requests at one millisecond) is spread over
 * consecutive steps, so every request is matched after the prefill of all earlier ones, as in the oracle.
 * Decode takes {@code ceil(output_length · msPerOutputToken / msPerStep)} steps (at least one).
 *
 * @param msPerStep trace milliseconds per simulator step (the tick length)
 * @param msPerOutputToken decode time per generated token (time per output token, TPOT)
 */
public record ReplayTiming(double msPerStep, double msPerOutputToken) {

  /** 50 ms steps and 20 ms per output token: the conversation trace's hour is 70,740 steps. */
  public static final ReplayTiming DEFAULT = new ReplayTiming(50, 20);

  /** Checks the values. */
  public ReplayTiming {
    if (!(msPerStep > 0) || !(msPerOutputToken >= 0)) {
      throw new IllegalArgumentException("step length must be > 0 ms and decode time >= 0 ms, got "
          + msPerStep + " and " + msPerOutputToken);
    }
  }

  /** The step at which a request with {@code timestampMs} arrives, before spreading bursts. */
  long stepOf(long timestampMs) {
    return (long) Math.floor(timestampMs / msPerStep);
  }

  /** Scheduler steps a request decodes for. */
  int decodeSteps(int outputLength) {
    return (int) Math.max(1, Math.ceil(outputLength * msPerOutputToken / msPerStep));
  }
}
