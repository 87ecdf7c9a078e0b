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

  /**
   * Proves {@code dir} usable as an output folder: something that is not a folder is refused ({@code /dev/full}),
   * a missing folder is created, and a probe file is created in it and removed again ({@code /proc/x}, a
   * read-only mount and a full disk fail here, before any work).
   *
   * @throws IllegalArgumentException one line: the flag, the path and why it cannot be written
   */
  static void checkWritableFolder(String flag, Path dir) {
    Path abs = dir.toAbsolutePath().normalize();
    String where = flag + " " + dir + ": ";
    if (Files.exists(abs) && !Files.isDirectory(abs)) {
      throw new IllegalArgumentException(where + "is not a folder");
    }
    try {
      Files.createDirectories(abs);
      Path probe = Files.createTempFile(abs, ".hicache-probe-", ".tmp");
      try (OutputStream o = Files.newOutputStream(probe, StandardOpenOption.WRITE)) {
        o.write('\n'); // a full disk refuses the first block
        o.flush();
      } finally {
        Files.deleteIfExists(probe);
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(where + "cannot be written (" + reason(e) + ")");
    }
  }

  /**
   * Checks that {@code dir}, an input folder, exists and (unless {@code suffix} is null) holds a file whose name
   * ends with {@code suffix} ({@code --spec-dir}: a {@code .tla} module): a mistyped path is bad input, not a
   * failed check.
   *
   * @throws IllegalArgumentException one line naming the flag, the path and what is missing
   */
  static void checkInputFolder(String flag, Path dir, String suffix) {
    String where = flag + " " + dir + ": ";
    if (!Files.exists(dir)) {
      throw new IllegalArgumentException(where + "no such folder");
    }
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException(where + "is not a folder");
    }
    if (suffix == null) {
      return;
    }
    try (java.util.stream.Stream<Path> files = Files.list(dir)) {
      if (files.noneMatch(f -> f.getFileName().toString().endsWith(suffix))) {
        throw new IllegalArgumentException(where + "holds no " + suffix + " file");
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new IllegalArgumentException(where + "cannot be read (" + e.getMessage() + ")");
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
    if (e instanceof java.nio.file.NoSuchFileException) {
      return "no such file or folder, and it cannot be created there";
    }
    if (e instanceof java.nio.file.FileAlreadyExistsException) {
      return "a file, not a folder, is in the way";
    }
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }
}
