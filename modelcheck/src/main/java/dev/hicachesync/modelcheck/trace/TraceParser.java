package dev.hicachesync.modelcheck.trace;

import dev.hicachesync.modelcheck.TlcMessage;
import dev.hicachesync.modelcheck.value.TlaValue;
import dev.hicachesync.modelcheck.value.TlaValueParser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tlc2.output.EC;

/**
 * Reads the error trace out of TLC's {@code -tool} messages.
 *
 * <p>A trace starts with {@link EC#TLC_BEHAVIOR_UP_TO_THIS_POINT} (safety) or {@link EC#TLC_COUNTER_EXAMPLE}
 * (liveness); each state is a {@link EC#TLC_STATE_PRINT2} message, {@code N: <Action line ..., col ... of
 * module M>} followed by {@code /\ var = value} lines (or a single {@code var = value} line when the spec
 * has one variable; long values continue on indented lines). A liveness trace ends with {@link
 * EC#TLC_BACK_TO_STATE} ({@code N: Back to state: <...>}) or {@link EC#TLC_STATE_PRINT3} ({@code N:
 * Stuttering}). A violation by an initial state ({@link EC#TLC_INVARIANT_VIOLATED_INITIAL}, {@link
 * EC#TLC_PROPERTY_VIOLATED_INITIAL}) carries that state in its own message.
 */
public final class TraceParser {

  private static final Pattern HEADER = Pattern.compile("^(\\d+):(?: <(.*)>)?\\s*$");
  private static final Pattern BACK_TO = Pattern.compile("^(\\d+): Back to state\\b(?:: <(.*)>)?.*");
  private static final Pattern ACTION = Pattern.compile("^(.*?)(?: (line \\d+, col \\d+.*))?$");
  private static final Pattern ASSIGNMENT =
      Pattern.compile("^(?:/\\\\ )?([A-Za-z_][A-Za-z0-9_]*) = (.*)$");

  private TraceParser() {}

  /** The trace in {@code messages}, or empty if TLC printed none; of several, the last one. */
  public static Optional<ErrorTrace> parse(List<TlcMessage> messages) {
    List<TraceState> states = new ArrayList<>();
    ErrorTrace.Ending ending = ErrorTrace.Ending.PREFIX;
    int loopTarget = 0;
    String loopAction = "";
    for (TlcMessage m : messages) {
      switch (m.code()) {
        case EC.TLC_BEHAVIOR_UP_TO_THIS_POINT, EC.TLC_COUNTER_EXAMPLE -> {
          // A new trace starts (TLC may print more than one, e.g. liveness after a safety prefix).
          states.clear();
          ending = ErrorTrace.Ending.PREFIX;
        }
        case EC.TLC_INVARIANT_VIOLATED_INITIAL, EC.TLC_PROPERTY_VIOLATED_INITIAL -> {
          states.clear();
          ending = ErrorTrace.Ending.PREFIX;
          Map<String, TlaValue> variables = variables(m.rest());
          if (!variables.isEmpty()) {
            states.add(new TraceState(1, TraceState.INITIAL, "", variables));
          }
        }
        case EC.TLC_STATE_PRINT1, EC.TLC_STATE_PRINT2 -> {
          Matcher header = HEADER.matcher(m.firstLine());
          if (header.matches()) {
            int number = Integer.parseInt(header.group(1));
            String[] action = splitAction(header.group(2) == null ? "" : header.group(2));
            states.add(new TraceState(number, action[0], action[1], variables(m.rest())));
          }
        }
        case EC.TLC_STATE_PRINT3 -> ending = ErrorTrace.Ending.STUTTERING;
        case EC.TLC_BACK_TO_STATE -> {
          Matcher back = BACK_TO.matcher(m.firstLine());
          if (back.matches()) {
            ending = ErrorTrace.Ending.LOOP;
            loopTarget = Integer.parseInt(back.group(1));
            loopAction = back.group(2) == null ? "" : splitAction(back.group(2))[0];
          }
        }
        default -> { }
      }
    }
    return states.isEmpty() ? Optional.empty() : Optional.of(new ErrorTrace(states, ending, loopTarget, loopAction));
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
      if (line.isBlank()) {
        break;
      }
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
