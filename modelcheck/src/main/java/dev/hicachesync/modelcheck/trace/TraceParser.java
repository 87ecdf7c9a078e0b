package dev.hicachesync.modelcheck.trace;

import dev.hicachesync.modelcheck.value.TlaValue;
import dev.hicachesync.modelcheck.value.TlaValueParser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Extracts the error trace from TLC's plain-text output.
 *
 * <p>TLC prints each state as a header {@code State N: <Action line ..., col ... of module M>}
 * followed by {@code /\ var = value} lines (or a single {@code var = value} line when the spec has
 * one variable); long values continue on indented lines. A liveness trace ends with {@code Back to
 * state N: <...>} or {@code State N: Stuttering}.
 */
public final class TraceParser {

  private static final Pattern STATE =
      Pattern.compile("^State (\\d+): (?:<(.*)>|(Stuttering))\\s*$");
  private static final Pattern BACK_TO = Pattern.compile("^Back to state (\\d+)\\b.*");
  private static final Pattern ACTION = Pattern.compile("^(.*?)(?: (line \\d+, col \\d+.*))?$");
  private static final Pattern ASSIGNMENT =
      Pattern.compile("^(?:/\\\\ )?([A-Za-z_][A-Za-z0-9_]*) = (.*)$");

  private TraceParser() {}

  /** The trace in {@code lines}, or empty if TLC printed none. */
  public static Optional<ErrorTrace> parse(List<String> lines) {
    List<TraceState> states = new ArrayList<>();
    ErrorTrace.Ending ending = ErrorTrace.Ending.PREFIX;
    int loopTarget = 0;
    int i = 0;
    while (i < lines.size()) {
      String line = lines.get(i);
      Matcher state = STATE.matcher(line);
      Matcher back = BACK_TO.matcher(line);
      if (back.matches()) {
        ending = ErrorTrace.Ending.LOOP;
        loopTarget = Integer.parseInt(back.group(1));
        i++;
      } else if (state.matches() && state.group(3) != null) {
        ending = ErrorTrace.Ending.STUTTERING;
        i++;
      } else if (state.matches()) {
        int number = Integer.parseInt(state.group(1));
        if (number == 1) {
          // A new trace starts (TLC may print more than one, e.g. liveness after a safety prefix).
          states.clear();
          ending = ErrorTrace.Ending.PREFIX;
        }
        String[] action = splitAction(state.group(2));
        i++;
        int end = i;
        while (end < lines.size() && !lines.get(end).isBlank() && !isTraceBoundary(lines.get(end))) {
          end++;
        }
        states.add(new TraceState(number, action[0], action[1], variables(lines.subList(i, end))));
        i = end;
      } else {
        i++;
      }
    }
    return states.isEmpty() ? Optional.empty() : Optional.of(new ErrorTrace(states, ending, loopTarget));
  }

  private static boolean isTraceBoundary(String line) {
    return STATE.matcher(line).matches() || BACK_TO.matcher(line).matches();
  }

  private static String[] splitAction(String text) {
    if (text.equals(TraceState.INITIAL)) {
      return new String[] {TraceState.INITIAL, ""};
    }
    Matcher m = ACTION.matcher(text.trim());
    if (m.matches()) {
      return new String[] {m.group(1), m.group(2) == null ? "" : m.group(2)};
    }
    return new String[] {text.trim(), ""};
  }

  /** Groups the assignment lines of one state (a new one starts at column 0) and parses them. */
  private static Map<String, TlaValue> variables(List<String> block) {
    Map<String, TlaValue> variables = new LinkedHashMap<>();
    String name = null;
    StringBuilder value = new StringBuilder();
    for (String line : block) {
      Matcher m = ASSIGNMENT.matcher(line);
      boolean startsNew = !line.isEmpty() && !Character.isWhitespace(line.charAt(0)) && m.matches();
      if (startsNew) {
        if (name != null) {
          variables.put(name, parseValue(value.toString()));
        }
        name = m.group(1);
        value.setLength(0);
        value.append(m.group(2));
      } else if (name != null) {
        value.append('\n').append(line);
      }
    }
    if (name != null) {
      variables.put(name, parseValue(value.toString()));
    }
    return variables;
  }

  /** Parses a value; one TLC prints in a form this parser does not know is kept as its text. */
  private static TlaValue parseValue(String text) {
    try {
      return TlaValueParser.parse(text);
    } catch (IllegalArgumentException e) {
      return new TlaValue.ModelValue(text.replaceAll("\\s+", " ").trim());
    }
  }
}
