package dev.hicachesync.cli;

/**
 * A run that ended with a named failure and a chosen exit code (a rank process lost, a refused handshake):
 * {@link RunFailures} prints its one line and returns its code.
 */
final class CommandExit extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int code;

  CommandExit(int code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  /** The exit code the command returns. */
  int code() {
    return code;
  }
}
