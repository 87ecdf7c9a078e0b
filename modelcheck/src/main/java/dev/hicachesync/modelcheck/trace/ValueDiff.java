package dev.hicachesync.modelcheck.trace;

import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Describes how a variable changed in a step, as short as stays exact: set elements added and
 * removed ({@code tree+{3}-{1}}), tuple elements appended or taken from the head ({@code
 * acks+<<2>>}, {@code acks-<<1>>}), the changed elements of a tuple of the same length and the
 * changed fields of a record or function, recursively ({@code tree[1].lock=0}, {@code
 * op.state="done"}, {@code slots[4]=1}); otherwise the new value ({@code phase="skip"}).
 */
final class ValueDiff {

  private ValueDiff() {}

  /** How {@code name} went from {@code before} to {@code after}; null before means "show it". */
  static List<String> describe(String name, TlaValue before, TlaValue after) {
    if (before == null && after instanceof TlaValue.Rec rec && !rec.fields().isEmpty()) {
      // A new record reads better field by field, like the changes of the later steps.
      List<String> fields = new ArrayList<>();
      rec.fields().forEach((k, v) -> fields.add(name + "." + k + "=" + v.format()));
      return fields;
    }
    if (before == null) {
      return List.of(name + "=" + after.format());
    }
    if (before instanceof TlaValue.SetValue b && after instanceof TlaValue.SetValue a) {
      List<TlaValue> added = minus(a.elements(), b.elements());
      List<TlaValue> removed = minus(b.elements(), a.elements());
      if (added.size() + removed.size() < a.elements().size() || a.elements().isEmpty()) {
        String text = name;
        text += added.isEmpty() ? "" : "+" + new TlaValue.SetValue(added).format();
        text += removed.isEmpty() ? "" : "-" + new TlaValue.SetValue(removed).format();
        return List.of(text);
      }
    }
    if (before instanceof TlaValue.Tuple b && after instanceof TlaValue.Tuple a) {
      List<TlaValue> bs = b.elements();
      List<TlaValue> as = a.elements();
      if (as.size() > bs.size() && as.subList(0, bs.size()).equals(bs)) {
        return List.of(name + "+" + new TlaValue.Tuple(as.subList(bs.size(), as.size())).format());
      }
      if (as.size() < bs.size() && bs.subList(bs.size() - as.size(), bs.size()).equals(as)) {
        return List.of(name + "-" + new TlaValue.Tuple(bs.subList(0, bs.size() - as.size())).format());
      }
      if (as.size() == bs.size() && !as.isEmpty()) {
        // Same length: a tuple indexed by key or node (the tree) changed in place; name the
        // elements that changed, field by field, instead of printing the whole tuple again.
        return changedEntries(name, indexed(bs), indexed(as), i -> "[" + i + "]");
      }
    }
    if (before instanceof TlaValue.Rec b && after instanceof TlaValue.Rec a
        && b.fields().keySet().equals(a.fields().keySet())) {
      return changedEntries(name, b.fields(), a.fields(), k -> "." + k);
    }
    if (before instanceof TlaValue.Fn b && after instanceof TlaValue.Fn a
        && b.mapping().keySet().equals(a.mapping().keySet())) {
      return changedEntries(name, b.mapping(), a.mapping(), k -> "[" + k.format() + "]");
    }
    return List.of(name + "=" + after.format());
  }

  private static <K> List<String> changedEntries(
      String name, Map<K, TlaValue> before, Map<K, TlaValue> after, java.util.function.Function<K, String> key) {
    List<String> changes = new ArrayList<>();
    for (Map.Entry<K, TlaValue> e : after.entrySet()) {
      TlaValue old = before.get(e.getKey());
      if (!Objects.equals(old, e.getValue())) {
        changes.addAll(describe(name + key.apply(e.getKey()), old, e.getValue()));
      }
    }
    return changes;
  }

  /** A TLA+ sequence as the function it is: 1-based index to element. */
  private static Map<Integer, TlaValue> indexed(List<TlaValue> elements) {
    Map<Integer, TlaValue> byIndex = new java.util.LinkedHashMap<>();
    for (int i = 0; i < elements.size(); i++) {
      byIndex.put(i + 1, elements.get(i));
    }
    return byIndex;
  }

  private static List<TlaValue> minus(List<TlaValue> from, List<TlaValue> remove) {
    List<TlaValue> rest = new ArrayList<>(from);
    rest.removeAll(remove);
    return rest;
  }
}
