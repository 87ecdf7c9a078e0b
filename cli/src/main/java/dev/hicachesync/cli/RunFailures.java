package dev.hicachesync.cli;

import dev.hicachesync.storage.StorageBackendException;
import dev.hicachesync.storage.StorageRootException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Turns a run that stopped on an exception into one line on stderr and an exit code: a path that turned
 * out unusable during the run (a symlinked page folder) is bad input (2); an I/O failure of the
 * environment (a disk that filled, a storage backend that threw) is {@link Main#EXIT_IO_FAILED} (4);
 * anything else is a bug (3).
 */
final class RunFailures {
  private RunFailures() {}

  /** Prints the line for {@code e}, prefixed by the command, and returns the exit code. */
  static int report(String command, RuntimeException e) {
    String prefix = "hicache-sync " + command + ": ";
    if (e instanceof CommandExit exit) {
      System.err.println(prefix + firstLine(exit.getMessage()));
      return exit.code();
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StorageRootException) {
        System.err.println(prefix + firstLine(t.getMessage()));
        return Main.EXIT_BAD_INPUT;
      }
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof UncheckedIOException || t instanceof IOException || t instanceof StorageBackendException) {
        // The outermost message: it names the seed, the failed rank and the peers the failure stopped.
        Throwable io = t instanceof UncheckedIOException && t.getCause() != null ? t.getCause() : t;
        String what = firstLine(e.getMessage());
        String cause = firstLine(String.valueOf(io.getMessage()));
        System.err.println(prefix + "I/O failure during the run: " + what + (what.contains(cause) ? "" : " (" + cause + ")"));
        return Main.EXIT_IO_FAILED;
      }
    }
    System.err.println(prefix + firstLine(e.getMessage()));
    return Main.EXIT_TOOL_FAILED;
  }

  private static String firstLine(String text) {
    return text == null ? "" : text.lines().findFirst().orElse("");
  }
}
