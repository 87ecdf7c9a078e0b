package dev.hicachesync.modelcheck;

import util.ToolIO;

/**
 * TLC's parsers called in this JVM (a cfg file through {@code ModelConfig}, a model's constants through
 * SANY and TLC's evaluator), one caller at a time: TLC keeps static state (its model values, which {@code
 * ModelConfig} resets; {@link ToolIO}'s mode and collected messages). None of them calls {@code
 * System.exit}; model checking itself always runs in a child JVM ({@link TlcRunner}).
 */
public final class InProcessTlc {

  private static final Object LOCK = new Object();

  private InProcessTlc() {}

  /** A call into TLC's classes. */
  @FunctionalInterface
  public interface Call<T, E extends Exception> {
    T call() throws E;
  }

  /**
   * Runs {@code call} alone, with SANY's and TLC's messages collected by {@link ToolIO} (not printed on this
   * JVM's standard output) and dropped afterwards; ToolIO's mode is restored.
   */
  public static <T, E extends Exception> T call(Call<T, E> call) throws E {
    synchronized (LOCK) {
      int mode = ToolIO.getMode();
      ToolIO.setMode(ToolIO.TOOL);
      try {
        return call.call();
      } finally {
        ToolIO.reset();
        ToolIO.setMode(mode);
      }
    }
  }
}
