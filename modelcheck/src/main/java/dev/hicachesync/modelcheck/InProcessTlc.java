package dev.hicachesync.modelcheck;

import util.ToolIO;
import util.UniqueString;

/**
 * TLC's parsers called in this JVM (a cfg file through {@code ModelConfig}, a model's constants through
 * SANY and TLC's evaluator), one caller at a time: TLC keeps static state (its model values, which {@code
 * ModelConfig} resets; {@link ToolIO}'s mode and collected messages; each interned name's slot in the last
 * spec's definition table, {@link UniqueString#getDefnLoc}, which a new spec's table would reuse: a name one
 * module defines with arguments and another without then reads as the first). None of them calls {@code
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
      forgetSlots();
      try {
        return call.call();
      } finally {
        ToolIO.reset();
        ToolIO.setMode(mode);
      }
    }
  }

  /** Every interned name without a slot, as in a fresh JVM: the next spec numbers its own definitions. */
  private static void forgetSlots() {
    if (UniqueString.internTbl != null) {
      for (UniqueString name : UniqueString.internTbl.toMap().values()) {
        name.setLoc(-1);
      }
    }
  }
}
