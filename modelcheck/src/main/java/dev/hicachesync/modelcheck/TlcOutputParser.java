package dev.hicachesync.modelcheck;

import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceParser;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns TLC's exit code and plain-text output into a {@link TlcResult}.
 *
 * <p>Exit codes (TLC-NOTES): 0 success, 11 deadlock, 12 invariant violated, 13 temporal or action
 * property violated; anything else is TLC failing (10 assumption false, 14 Assert, 75-77
 * evaluation errors, 150/151 parse or config errors, 255 other).
 */
public final class TlcOutputParser {

  private static final Pattern INVARIANT = Pattern.compile("^Error: Invariant (\\S+) is violated");
  private static final Pattern ACTION_PROPERTY = Pattern.compile("^Error: Action property (\\S+) is violated");
  private static final Pattern DEPTH = Pattern.compile("^The depth of the complete state graph search is (\\d+)\\.");
  private static final Pattern INITIAL = Pattern.compile("^Finished computing initial states: ([\\d,]+) distinct state");
  private static final Pattern BOILERPLATE =
      Pattern.compile("^(This was probably caused|See the User Output|The exception was a)");
  private static final String COMPLETED = "Model checking completed. No error has been found.";

  private TlcOutputParser() {}

  /**
   * Parses one run.
   *
   * @param exitCode TLC's exit code
   * @param timedOut whether the runner killed TLC at its time limit
   * @param lines TLC's output
   * @param properties the cfg's temporal properties, named when TLC does not say which failed
   * @param seconds wall time
   * @param log where the output was saved
   */
  public static TlcResult parse(
      int exitCode, boolean timedOut, List<String> lines, List<String> properties, double seconds, Path log) {
    long distinct = 0;
    long generated = 0;
    int depth = 0;
    Integer finalDepth = null;
    for (String line : lines) {
      Optional<Progress> p = Progress.parse(line);
      if (p.isPresent()) {
        distinct = p.get().distinct();
        generated = p.get().generated();
        depth = Math.max(depth, p.get().depth());
        continue;
      }
      Matcher m = DEPTH.matcher(line);
      if (m.find()) {
        finalDepth = Integer.parseInt(m.group(1));
      }
      m = INITIAL.matcher(line);
      if (m.find() && distinct == 0) {
        distinct = Long.parseLong(m.group(1).replace(",", ""));
      }
    }
    Optional<ErrorTrace> trace = TraceParser.parse(lines);
    if (finalDepth != null) {
      depth = finalDepth;
    } else if (trace.isPresent()) {
      depth = Math.max(depth, trace.get().length());
    }
    Verdict verdict;
    String message = "";
    if (timedOut) {
      verdict = Verdict.TIMEOUT;
      message = "time limit reached after " + Math.round(seconds) + " s; TLC was stopped";
    } else {
      switch (exitCode) {
        case 0:
          if (lines.stream().anyMatch(l -> l.startsWith(COMPLETED))) {
            verdict = Verdict.HOLDS;
          } else {
            // Never trust a 0 without TLC's own statement that it completed the search.
            verdict = Verdict.ERROR;
            message = "TLC exited 0 without reporting a completed search";
          }
          break;
        case 11:
          verdict = Verdict.DEADLOCK;
          break;
        case 12:
          verdict = Verdict.violates(firstGroup(lines, INVARIANT).orElse("an invariant"));
          break;
        case 13:
          verdict = Verdict.violates(firstGroup(lines, ACTION_PROPERTY)
              .orElse(properties.isEmpty() ? "a temporal property" : String.join(", ", properties)));
          break;
        default:
          verdict = Verdict.ERROR;
          message = "TLC exit " + exitCode + ": " + errorMessage(lines);
      }
    }
    return new TlcResult(exitCode, verdict, distinct, generated, depth, seconds,
        verdict.isViolation() ? trace : Optional.empty(), message, log, lines);
  }

  private static Optional<String> firstGroup(List<String> lines, Pattern pattern) {
    for (String line : lines) {
      Matcher m = pattern.matcher(line);
      if (m.find()) {
        return Optional.of(m.group(1));
      }
    }
    return Optional.empty();
  }

  /** TLC's explanation of a failure, on one line. */
  static String errorMessage(List<String> lines) {
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("***Parse Error***")) {
        return "parse error: " + joinUntilBlank(lines, i + 1, 2) + module(lines);
      }
      if (line.startsWith("Semantic errors:")) {
        List<String> parts = new ArrayList<>();
        for (int j = i + 1; j < lines.size() && parts.size() < 2; j++) {
          String next = lines.get(j).trim();
          if (!next.isEmpty() && !next.startsWith("***")) {
            parts.add(next);
          }
        }
        return "semantic error: " + String.join(": ", parts);
      }
    }
    List<String> skipped = List.of("Error: The behavior up to this point is:", "Error: Parsing or semantic analysis failed.");
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("Error: ") && !skipped.contains(line.trim())) {
        return joinUntilBlank(lines, i, 6).replaceFirst("^Error: ", "");
      }
    }
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains("Exception") || lines.get(i).startsWith("Error")) {
        return joinUntilBlank(lines, i, 4);
      }
    }
    List<String> tail = new ArrayList<>();
    for (int i = Math.max(0, lines.size() - 3); i < lines.size(); i++) {
      tail.add(lines.get(i).trim());
    }
    return tail.isEmpty() ? "no output" : String.join(" ", tail);
  }

  /** Joins up to {@code max} non-blank lines from {@code from}, skipping leading blanks. */
  private static String joinUntilBlank(List<String> lines, int from, int max) {
    List<String> parts = new ArrayList<>();
    int i = from;
    while (i < lines.size() && lines.get(i).isBlank() && parts.isEmpty()) {
      i++;
    }
    while (i < lines.size() && !lines.get(i).isBlank() && parts.size() < max) {
      String line = lines.get(i).trim();
      if (i > from && (line.startsWith("Error: The behavior") || line.startsWith("Finished in"))) {
        break;
      }
      if (!BOILERPLATE.matcher(line).find()) {
        parts.add(line);
      }
      i++;
    }
    return String.join(" ", parts);
  }

  private static String module(List<String> lines) {
    return lines.stream().filter(l -> l.startsWith("Could not parse module")).findFirst()
        .map(l -> " (" + l.trim() + ")").orElse("");
  }
}
