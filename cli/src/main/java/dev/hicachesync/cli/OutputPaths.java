package dev.hicachesync.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Checks, before a command starts its work, that each file it will write can be written: a run of
 * minutes must not end with "cannot write". A failure is bad input, one line naming the flag,
 * the path and the reason. A disk that fills <em>during</em> the run is another matter: {@link
 * Main#EXIT_IO_FAILED}.
 */
final class OutputPaths {
  private OutputPaths() {}

  /**
   * Proves {@code file} writable: a folder is refused, a missing parent folder is created; a file that does not
   * exist yet is created and removed again; an existing regular file must be writable; anything else (a
   * device such as {@code /dev/full}) gets one byte written and flushed.
   *
   * @throws IllegalArgumentException one line: the flag, the path and why it cannot be written
   */
  static void checkWritable(String flag, Path file) {
    Path abs = file.toAbsolutePath().normalize();
    Path parent = abs.getParent();
    String where = flag + " " + file + ": ";
    if (Files.isDirectory(abs)) {
      throw new IllegalArgumentException(where + "is a folder, not a file");
    }
    if (parent == null) {
      throw new IllegalArgumentException(where + "has no folder");
    }
    try {
      Files.createDirectories(parent); // the command would create it too; made now, so it is checked now
      if (!Files.exists(abs)) {
        Files.createFile(abs);
        Files.delete(abs);
      } else if (Files.isRegularFile(abs)) {
        try (OutputStream o = Files.newOutputStream(abs, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
          o.flush(); // opening for writing is the check; nothing is appended
        }
      } else {
        try (OutputStream o = Files.newOutputStream(abs, StandardOpenOption.WRITE)) {
          o.write('\n');
          o.flush();
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(where + "cannot be written (" + reason(e) + ")");
    }
  }

  /** The reason of an I/O failure in a few words. */
  static String reason(IOException e) {
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason();
    }
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }
}
