package dev.hicachesync.modelcheck;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import util.FilenameToStream;
import util.ToolIO;
import util.UniqueString;

/**
 * TLC's parsers called in this JVM (a cfg file through {@code ModelConfig}, a model's constants through
 * SANY and TLC's evaluator), one caller at a time: TLC keeps static state (its model values, which {@code
 * ModelConfig} resets; {@link ToolIO}'s mode and collected messages; each interned name's slot in the last
 * spec's definition table, {@link UniqueString#getDefnLoc}, which a new spec's table would reuse: a name one
 * module defines with arguments and another without then reads as the first). None of them calls {@code
 * System.exit}; model checking itself always runs in a child JVM ({@link TlcRunner}).
 *
 * <p>SANY copies each standard module it resolves from the TLC jar into {@link FilenameToStream#TMPDIR} (read
 * from {@code java.io.tmpdir} once) and deletes the copy when the JVM exits, under the same name in every JVM:
 * two tools sharing {@code /tmp} overwrite and delete the files the other is parsing (SANY's "Module-Table lookup
 * failure"). So this JVM's SANY gets a directory of its own, and {@code java.io.tmpdir} stays as it was for
 * everything else.
 */
public final class InProcessTlc {

  private static final Object LOCK = new Object();

  /** The directory SANY copies standard modules into in this JVM (its own, unless SANY was set up before). */
  static final String SANY_COPIES = privateSanyDirectory();

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

  private static String privateSanyDirectory() {
    String shared = System.getProperty("java.io.tmpdir");
    try {
      Path own = Files.createTempDirectory(Path.of(shared), "hicache-sync-sany-");
      own.toFile().deleteOnExit(); // registered before SANY's copies, so deleted after them
      System.setProperty("java.io.tmpdir", own.toString());
      try {
        return FilenameToStream.TMPDIR; // the interface's initialisation reads the property now
      } finally {
        System.setProperty("java.io.tmpdir", shared);
      }
    } catch (IOException e) {
      return FilenameToStream.TMPDIR; // no directory of its own: the shared one, as before
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
