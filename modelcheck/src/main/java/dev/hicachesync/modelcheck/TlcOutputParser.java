package dev.hicachesync.modelcheck;

import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceParser;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tlc2.output.EC;
import tlc2.output.EC.ExitStatus;

/**
 * Turns TLC's exit code and {@code -tool} messages into a {@link TlcResult}.
 *
 * <p>The verdict comes from the message that reports it ({@link EC#TLC_SUCCESS}, {@link
 * EC#TLC_DEADLOCK_REACHED}, an invariant, action-property or temporal-property violation) and must agree
 * with TLC's exit code (TLC's own {@link ExitStatus#errorConstantToExitStatus}: 0 success, 11 deadlock, 12
 * invariant, 13 temporal or action property); any other
 * exit is TLC failing (10 assumption false, 14 Assert, 75-77 evaluation errors, 150/151 parse or config
 * errors, 255 other), reported with TLC's own explanation on one line.
 */
public final class TlcOutputParser {

  /** {@code Invariant NAME is violated.} and {@code ... by the initial state:}; the same for (action) properties. */
  private static final Pattern VIOLATED = Pattern.compile("^(?:Invariant|Action property|Property) (\\S+) is violated");
  private static final Pattern DEPTH = Pattern.compile("^The depth of the complete state graph search is (\\d+)\\.");
  /** A simulation's count: {@code Progress(-1) at ...: N states generated, ...} or {@code The number of states generated: N}. */
  private static final Pattern SIMULATED = Pattern.compile("(?:: |^The number of states generated: )([\\d,]+)(?: states generated|$)");
  /** {@code Worker: rmi://host:port/0 Sent: N Rcvd: M CacheRatio: ...}. */
  private static final Pattern WORKER = Pattern.compile("^Worker: (\\S+) Sent: (\\d+) Rcvd: (\\d+)");
  private static final Pattern INITIAL = Pattern.compile("^Finished computing initial states: ([\\d,]+) distinct state");
  private static final Pattern BOILERPLATE =
      Pattern.compile("^(This was probably caused|See the User Output|The exception was a)");
  /** Lines of one error message kept in the one-line explanation. */
  private static final int MAX_ERROR_LINES = 6;

  private TlcOutputParser() {}

  /**
   * Parses one run.
   *
   * @param exitCode TLC's exit code
   * @param timedOut whether the runner killed TLC at its time limit
   * @param output TLC's output
   * @param properties the cfg's temporal properties, named when TLC does not say which failed
   * @param seconds wall time
   * @param log where the output was saved
   */
  public static TlcResult parse(
      int exitCode, boolean timedOut, TlcOutput output, List<String> properties, double seconds, Path log) {
    return parse(exitCode, timedOut, output, properties, seconds, log, TlcSearch.EXHAUSTIVE);
  }

  /**
   * Parses one run of the given search. A simulation that ran to its end without a violation is
   * {@link Verdict#NO_VIOLATION_FOUND}. TLC's distributed server exits 0 whatever it found, so there the
   * message alone states the verdict (and the exit code becomes the one TLC gives that verdict).
   */
  public static TlcResult parse(int exitCode, boolean timedOut, TlcOutput output, List<String> properties,
      double seconds, Path log, TlcSearch search) {
    List<TlcMessage> messages = output.messages();
    boolean finished = false;
    List<TlcResult.RemoteWorker> workers = new ArrayList<>();
    long distinct = 0;
    long generated = 0;
    int depth = 0;
    Integer finalDepth = null;
    Reported reported = null;
    for (TlcMessage m : messages) {
      Optional<Progress> p = Progress.of(m);
      if (p.isPresent()) {
        distinct = p.get().distinct();
        generated = p.get().generated();
        depth = Math.max(depth, p.get().depth());
        continue;
      }
      switch (m.code()) {
        case EC.TLC_SEARCH_DEPTH -> finalDepth = group(DEPTH, m).map(Integer::parseInt).orElse(finalDepth);
        case EC.TLC_INIT_GENERATED1 -> {
          if (distinct == 0) {
            distinct = group(INITIAL, m).map(n -> Long.parseLong(n.replace(",", ""))).orElse(0L);
          }
        }
        case EC.TLC_PROGRESS_SIMU, EC.TLC_STATS_SIMU ->
            generated = Math.max(generated, group(SIMULATED, m).map(n -> Long.parseLong(n.replace(",", ""))).orElse(0L));
        case EC.TLC_FINISHED -> finished = true;
        case EC.TLC_DISTRIBUTED_WORKER_STATS -> {
          Matcher w = WORKER.matcher(m.firstLine());
          if (w.find()) {
            workers.add(new TlcResult.RemoteWorker(w.group(1), Long.parseLong(w.group(2)), Long.parseLong(w.group(3))));
          }
        }
        case EC.TLC_SUCCESS -> reported = first(reported, Verdict.HOLDS, ExitStatus.SUCCESS);
        case EC.TLC_DEADLOCK_REACHED -> reported = first(reported, m, Verdict.DEADLOCK);
        case EC.TLC_INVARIANT_VIOLATED_BEHAVIOR, EC.TLC_INVARIANT_VIOLATED_INITIAL ->
            reported = first(reported, m, Verdict.violates(group(VIOLATED, m).orElse("an invariant")));
        case EC.TLC_ACTION_PROPERTY_VIOLATED_BEHAVIOR, EC.TLC_PROPERTY_VIOLATED_INITIAL ->
            reported = first(reported, m, Verdict.violates(group(VIOLATED, m).orElse("a temporal property")));
        case EC.TLC_TEMPORAL_PROPERTY_VIOLATED -> reported = first(reported, m,
            Verdict.violates(properties.isEmpty() ? "a temporal property" : String.join(", ", properties)));
        default -> { }
      }
    }
    Optional<ErrorTrace> trace = TraceParser.parse(messages);
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
    } else if (reported != null && exitCode == reported.exitCode()) {
      verdict = reported.verdict();
    } else if (reported != null && exitCode == ExitStatus.SUCCESS && search instanceof TlcSearch.Distributed) {
      verdict = reported.verdict();
      exitCode = reported.exitCode();
    } else if (reported == null && exitCode == ExitStatus.SUCCESS && finished
        && search instanceof TlcSearch.Simulation simulation) {
      verdict = Verdict.NO_VIOLATION_FOUND;
      depth = simulation.depth();
    } else {
      // Never trust an exit code without TLC's own statement of the verdict it stands for.
      verdict = Verdict.ERROR;
      message = exitCode == ExitStatus.SUCCESS ? "TLC exited 0 without reporting a completed search"
          : "TLC exit " + exitCode + ": " + errorMessage(output);
    }
    return new TlcResult(exitCode, verdict, distinct, generated, depth, seconds,
        verdict.isViolation() ? trace : Optional.empty(), message, log, output.lines(), workers);
  }

  /**
   * Parses a saved run ({@code tlc.log}) whose exit code was not kept: the exit code is the one TLC gives the
   * verdict its messages state (0 success, 11 deadlock, 12 invariant, 13 property), so a run that stated one
   * parses as it did when it ran; one that stated none parses as {@link Verdict#ERROR}.
   */
  public static TlcResult reread(TlcOutput output, List<String> properties, Path log) {
    for (int exit : new int[] {ExitStatus.SUCCESS, ExitStatus.VIOLATION_DEADLOCK, ExitStatus.VIOLATION_SAFETY,
        ExitStatus.VIOLATION_LIVENESS}) {
      TlcResult r = parse(exit, false, output, properties, 0, log);
      if (r.verdict().kind() != Verdict.Kind.ERROR) {
        return r;
      }
    }
    return parse(-1, false, output, properties, 0, log);
  }

  /** The verdict TLC's messages state, and the exit code TLC gives a run with it. */
  private record Reported(Verdict verdict, int exitCode) {}

  /** The first verdict TLC states is the run's (a later one would be about the same search). */
  private static Reported first(Reported before, Verdict verdict, int exitCode) {
    return before == null ? new Reported(verdict, exitCode) : before;
  }

  /** A violation: TLC's own table gives the exit code of the message that reports it. */
  private static Reported first(Reported before, TlcMessage violation, Verdict verdict) {
    return first(before, verdict, ExitStatus.errorConstantToExitStatus(violation.code()));
  }

  private static Optional<String> group(Pattern pattern, TlcMessage m) {
    Matcher matcher = pattern.matcher(m.firstLine());
    return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
  }

  /**
   * TLC's explanation of a failure, on one line: SANY's error for a spec that does not parse (printed
   * outside TLC's messages), else TLC's first error message, else the JVM's exception, else the last lines.
   */
  static String errorMessage(TlcOutput output) {
    boolean parsingFailed = output.messages().stream()
        .anyMatch(m -> m.code() == EC.TLC_PARSING_FAILED || m.code() == EC.TLC_PARSING_FAILED2);
    List<String> plain = output.plain();
    if (parsingFailed) {
      Optional<String> sany = sanyError(plain);
      if (sany.isPresent()) {
        return sany.get();
      }
    }
    for (TlcMessage m : output.messages()) {
      if (m.isError() && m.code() != EC.TLC_BEHAVIOR_UP_TO_THIS_POINT && m.code() != EC.TLC_COUNTER_EXAMPLE) {
        return oneLine(m.lines());
      }
    }
    for (int i = 0; i < plain.size(); i++) {
      if (plain.get(i).contains("Exception") || plain.get(i).startsWith("Error")) {
        return oneLine(plain.subList(i, Math.min(plain.size(), i + 4)));
      }
    }
    List<String> tail = new ArrayList<>();
    for (int i = Math.max(0, plain.size() - 3); i < plain.size(); i++) {
      tail.add(plain.get(i).trim());
    }
    return tail.isEmpty() ? "no output" : String.join(" ", tail);
  }

  /** SANY's parse or semantic error (TLC 2.18 prints it untagged, before its "parsing failed" message). */
  private static Optional<String> sanyError(List<String> lines) {
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("***Parse Error***")) {
        String module = lines.stream().filter(l -> l.startsWith("Could not parse module")).findFirst()
            .map(l -> " (" + l.trim() + ")").orElse("");
        return Optional.of("parse error: " + oneLine(untilBlank(lines, i + 1, 2)) + module);
      }
      if (line.startsWith("Semantic errors:")) {
        List<String> parts = new ArrayList<>();
        for (int j = i + 1; j < lines.size() && parts.size() < 2; j++) {
          String next = lines.get(j).trim();
          if (!next.isEmpty() && !next.startsWith("***")) {
            parts.add(next);
          }
        }
        return Optional.of("semantic error: " + String.join(": ", parts));
      }
    }
    return Optional.empty();
  }

  /** Up to {@code max} lines from {@code from} (leading blanks skipped) up to the next blank line. */
  private static List<String> untilBlank(List<String> lines, int from, int max) {
    int i = from;
    while (i < lines.size() && lines.get(i).isBlank()) {
      i++;
    }
    List<String> out = new ArrayList<>();
    while (i < lines.size() && !lines.get(i).isBlank() && out.size() < max) {
      out.add(lines.get(i++));
    }
    return out;
  }

  /** The non-blank lines of a message, without TLC's boilerplate, joined on one line. */
  private static String oneLine(List<String> lines) {
    List<String> parts = new ArrayList<>();
    for (String line : lines) {
      String t = line.trim();
      if (!t.isEmpty() && !BOILERPLATE.matcher(t).find() && parts.size() < MAX_ERROR_LINES) {
        parts.add(t);
      }
    }
    return String.join(" ", parts);
  }
}
