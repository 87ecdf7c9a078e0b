package dev.hicachesync.modelcheck.value;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses the values TLC prints in error traces: integers, strings, booleans, model values,
 * tuples, sets, intervals, records and functions, possibly spread over several lines.
 */
public final class TlaValueParser {

  private final String text;
  private int pos;

  private TlaValueParser(String text) {
    this.text = text;
  }

  /** Parses one complete value; throws {@link IllegalArgumentException} on anything else. */
  public static TlaValue parse(String text) {
    TlaValueParser parser = new TlaValueParser(text);
    TlaValue value = parser.value();
    parser.skipSpace();
    if (parser.pos != text.length()) {
      throw parser.error("unexpected text after the value");
    }
    return value;
  }

  private TlaValue value() {
    skipSpace();
    if (pos >= text.length()) {
      throw error("value expected");
    }
    char c = text.charAt(pos);
    if (startsWith("<<")) {
      pos += 2;
      return new TlaValue.Tuple(list(">>"));
    }
    if (c == '{') {
      pos++;
      return new TlaValue.SetValue(list("}"));
    }
    if (c == '[') {
      pos++;
      return record();
    }
    if (c == '(') {
      pos++;
      return function();
    }
    if (c == '"') {
      return string();
    }
    if (c == '-' || Character.isDigit(c)) {
      return numberOrInterval();
    }
    if (Character.isLetter(c) || c == '_') {
      String word = identifier();
      switch (word) {
        case "TRUE":
          return new TlaValue.Bool(true);
        case "FALSE":
          return new TlaValue.Bool(false);
        default:
          return new TlaValue.ModelValue(word);
      }
    }
    throw error("unexpected character '" + c + "'");
  }

  private List<TlaValue> list(String close) {
    List<TlaValue> elements = new ArrayList<>();
    skipSpace();
    if (startsWith(close)) {
      pos += close.length();
      return elements;
    }
    while (true) {
      elements.add(value());
      skipSpace();
      if (startsWith(close)) {
        pos += close.length();
        return elements;
      }
      expect(",");
    }
  }

  private TlaValue record() {
    Map<String, TlaValue> fields = new LinkedHashMap<>();
    skipSpace();
    if (startsWith("]")) {
      pos++;
      return new TlaValue.Rec(fields);
    }
    while (true) {
      skipSpace();
      String name = identifier();
      skipSpace();
      expect("|->");
      fields.put(name, value());
      skipSpace();
      if (startsWith("]")) {
        pos++;
        return new TlaValue.Rec(fields);
      }
      expect(",");
    }
  }

  private TlaValue function() {
    Map<TlaValue, TlaValue> mapping = new LinkedHashMap<>();
    while (true) {
      TlaValue key = value();
      skipSpace();
      expect(":>");
      mapping.put(key, value());
      skipSpace();
      if (startsWith(")")) {
        pos++;
        return new TlaValue.Fn(mapping);
      }
      expect("@@");
    }
  }

  private TlaValue string() {
    StringBuilder sb = new StringBuilder();
    pos++;
    while (pos < text.length()) {
      char c = text.charAt(pos++);
      if (c == '"') {
        return new TlaValue.Str(sb.toString());
      }
      if (c == '\\' && pos < text.length()) {
        char escaped = text.charAt(pos++);
        sb.append(escaped == 'n' ? '\n' : escaped == 't' ? '\t' : escaped);
      } else {
        sb.append(c);
      }
    }
    throw error("unterminated string");
  }

  private TlaValue numberOrInterval() {
    long low = number();
    if (startsWith("..")) {
      pos += 2;
      long high = number();
      List<TlaValue> elements = new ArrayList<>();
      for (long i = low; i <= high; i++) {
        elements.add(new TlaValue.Int(i));
      }
      return new TlaValue.SetValue(elements);
    }
    return new TlaValue.Int(low);
  }

  private long number() {
    int start = pos;
    if (startsWith("-")) {
      pos++;
    }
    while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
      pos++;
    }
    try {
      return Long.parseLong(text.substring(start, pos));
    } catch (NumberFormatException e) {
      throw error("bad number");
    }
  }

  private String identifier() {
    int start = pos;
    while (pos < text.length()
        && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
      pos++;
    }
    if (start == pos) {
      throw error("name expected");
    }
    return text.substring(start, pos);
  }

  private void expect(String token) {
    skipSpace();
    if (!startsWith(token)) {
      throw error("'" + token + "' expected");
    }
    pos += token.length();
  }

  private boolean startsWith(String token) {
    return text.startsWith(token, pos);
  }

  private void skipSpace() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    String near = text.substring(pos, Math.min(text.length(), pos + 20));
    return new IllegalArgumentException(
        "cannot parse TLA+ value: " + what + " at offset " + pos + " near '" + near + "'");
  }
}
