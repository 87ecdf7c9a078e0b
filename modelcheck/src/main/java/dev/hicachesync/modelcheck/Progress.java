package dev.hicachesync.modelcheck;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tlc2.output.EC;

/**
 * A state-count report of TLC: its periodic progress message ({@link EC#TLC_PROGRESS_STATS}) or its
 * final statistics ({@link EC#TLC_STATS}).
 *
 * @param depth search depth so far, or -1 when the message does not give it (the final statistics)
 * @param generated states generated
 * @param distinct distinct states found
 * @param queue states left on the queue
 */
public record Progress(int depth, long generated, long distinct, long queue) {

  /** The counts of both messages: {@code N states generated[ (rate)], M distinct states found[ (rate)], K states left on queue.} */
  private static final String COUNTS =
      "([\\d,]+) states generated(?: \\([^)]*\\))?, ([\\d,]+) distinct states found(?: \\([^)]*\\))?,"
          + " ([\\d,]+) states left on queue\\.";
  /** {@code Progress(depth) at date time: counts}. */
  private static final Pattern PROGRESS = Pattern.compile("^Progress\\((\\d+)\\) at [^:]+:\\d\\d:\\d\\d: " + COUNTS);
  private static final Pattern STATS = Pattern.compile("^" + COUNTS);

  /** The report {@code message} carries, if it is one. */
  public static Optional<Progress> of(TlcMessage message) {
    if (message.code() == EC.TLC_PROGRESS_STATS) {
      Matcher m = PROGRESS.matcher(message.firstLine());
      if (m.find()) {
        return Optional.of(new Progress(Integer.parseInt(m.group(1)), num(m.group(2)), num(m.group(3)), num(m.group(4))));
      }
    } else if (message.code() == EC.TLC_STATS) {
      Matcher m = STATS.matcher(message.firstLine());
      if (m.find()) {
        return Optional.of(new Progress(-1, num(m.group(1)), num(m.group(2)), num(m.group(3))));
      }
    }
    return Optional.empty();
  }

  private static long num(String digits) {
    return Long.parseLong(digits.replace(",", ""));
  }
}
