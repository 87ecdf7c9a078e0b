package dev.hicachesync.workload;

/**
 * A trace line that does not follow the Mooncake format; the message is one line naming the file, the
 * line number and the offending field, e.g. {@code trace.jsonl:17: input_length: must be >= 0, got -3}.
 */
public final class MalformedTraceException extends RuntimeException {

  private final long line;
  private final String field;

  /** Creates the exception for {@code field} (or {@code "line"} when the line is not a JSON object). */
  public MalformedTraceException(String file, long line, String field, String problem) {
    super(file + ":" + line + ": " + field + ": " + problem);
    this.line = line;
    this.field = field;
  }

  /** The 1-based line number of the offending line. */
  public long line() {
    return line;
  }

  /** The offending field name, or {@code "line"} when the line as a whole is unreadable. */
  public String field() {
    return field;
  }
}
