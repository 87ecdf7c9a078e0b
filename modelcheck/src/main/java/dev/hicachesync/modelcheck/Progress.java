package dev.hicachesync.modelcheck;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A state-count report of TLC: its periodic {@code Progress(depth) at ...} line or the final
 * {@code N states generated, M distinct states found, K states left on queue.} line.
 *
 * @param depth search depth so far, or -1 when the line does not give it (the final line)
 * @param generated states generated
 * @param distinct distinct states found
 * @param queue states left on the queue
 */
public record Progress(int depth, long generated, long distinct, long queue) {

  private static final String COUNTS =
      "([\\d,]+) states generated(?: \\([^)]*\\))?, ([\\d,]+) distinct states found(?: \\([^)]*\\))?,"
          + " ([\\d,]+) states left on queue\\.";
  private static final Pattern PROGRESS = Pattern.compile("^Progress\\((\\d+)\\) at [^:]+:\\d\\d:\\d\\d: " + COUNTS);
  private static final Pattern FINAL = Pattern.compile("^" + COUNTS);

  /** The report on {@code line}, if the line is one. */
  public static Optional<Progress> parse(String line) {
    Matcher m = PROGRESS.matcher(line);
    if (m.find()) {
      return Optional.of(new Progress(Integer.parseInt(m.group(1)), num(m.group(2)), num(m.group(3)), num(m.group(4))));
    }
    m = FINAL.matcher(line);
    if (m.find()) {
      return Optional.of(new Progress(-1, num(m.group(1)), num(m.group(2)), num(m.group(3))));
    }
    return Optional.empty();
  }

  private static long num(String digits) {
    return Long.parseLong(digits.replace(",", ""));
  }
}
