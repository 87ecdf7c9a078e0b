package dev.hicachesync.trace;

/** A file that is not a trace; the message is one line that names the line number. */
public final class TraceFormatException extends Exception {
  private static final long serialVersionUID = 1L;
  private final int line;

  /** The problem {@code message} on line {@code line} (1-based) of {@code file}. */
  public TraceFormatException(String file, int line, String message) {
    super(file + ":" + line + ": " + message);
    this.line = line;
  }

  /** The 1-based line number. */
  public int line() {
    return line;
  }
}
