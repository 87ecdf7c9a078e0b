package dev.hicachesync.modelcheck.value;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A TLA+ value as TLC prints it in an error trace.
 *
 * <p>Equality is structural (Java records over lists and maps), which is what comparing the
 * values of two ranks needs: TLC prints sets and function domains in a normalised order, so two
 * equal TLA+ values print, and parse, identically.
 */
public sealed interface TlaValue {

  /** The value in TLC's compact notation, on one line. */
  String format();

  /** An integer. */
  record Int(long value) implements TlaValue {
    @Override
    public String format() {
      return Long.toString(value);
    }
  }

  /** A string literal. */
  record Str(String value) implements TlaValue {
    @Override
    public String format() {
      return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
  }

  /** {@code TRUE} or {@code FALSE}. */
  record Bool(boolean value) implements TlaValue {
    @Override
    public String format() {
      return value ? "TRUE" : "FALSE";
    }
  }

  /** A model value or any other bare identifier TLC prints. */
  record ModelValue(String name) implements TlaValue {
    @Override
    public String format() {
      return name;
    }
  }

  /** A tuple {@code <<a, b>>} (a function with domain 1..n). */
  record Tuple(List<TlaValue> elements) implements TlaValue {
    public Tuple {
      elements = List.copyOf(elements);
    }

    @Override
    public String format() {
      return elements.isEmpty() ? "<<>>" : "<<" + join(elements) + ">>";
    }
  }

  /** A set {@code {a, b}}, in the order TLC printed it. */
  record SetValue(List<TlaValue> elements) implements TlaValue {
    public SetValue {
      elements = List.copyOf(elements);
    }

    @Override
    public String format() {
      return "{" + join(elements) + "}";
    }
  }

  /** A record {@code [a |-> 1, b |-> 2]}. */
  record Rec(Map<String, TlaValue> fields) implements TlaValue {
    public Rec {
      fields = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fields));
    }

    @Override
    public String format() {
      return fields.entrySet().stream()
          .map(e -> e.getKey() + " |-> " + e.getValue().format())
          .collect(Collectors.joining(", ", "[", "]"));
    }
  }

  /** A function {@code (0 :> a @@ 1 :> b)}. */
  record Fn(Map<TlaValue, TlaValue> mapping) implements TlaValue {
    public Fn {
      mapping = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(mapping));
    }

    @Override
    public String format() {
      return mapping.entrySet().stream()
          .map(e -> e.getKey().format() + " :> " + e.getValue().format())
          .collect(Collectors.joining(" @@ ", "(", ")"));
    }
  }

  private static String join(List<TlaValue> values) {
    return values.stream().map(TlaValue::format).collect(Collectors.joining(", "));
  }
}
