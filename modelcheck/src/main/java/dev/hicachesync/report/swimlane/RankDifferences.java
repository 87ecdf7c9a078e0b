package dev.hicachesync.report.swimlane;

import dev.hicachesync.modelcheck.trace.RankLayout;
import dev.hicachesync.modelcheck.trace.TraceAnalysis;
import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where the ranks of one replica differ in a state, field by field, with the value of every rank: not
 * two whole records side by side, but {@code tree[1].hw} with rank 0's {@code 0} and rank 1's {@code 1}.
 *
 * <p>The ranks' values are walked together down records, functions and tuples while their shapes agree;
 * where they stop agreeing (a different value, a tuple of another length) is one field. Sequences of
 * different lengths are compared at the positions all ranks have (a later pipeline stage has logged
 * fewer steps), and reported whole only if those agree. Fields named in the violated property come first
 * ({@link Field#property()}: the variable or a field is named in its definition), those whose fields the
 * operators it uses name too before the others ({@code ls.log[3].tree} before {@code ls.tree} for {@code
 * LogAgree(LAMBDA e : e.tree)}); the environment inputs ({@link TraceAnalysis#isEnvironment}) last.
 *
 * @param ranks the ranks with a column, ascending
 * @param fields the fields in which some replica's ranks differ
 */
public record RankDifferences(List<Integer> ranks, List<Field> fields) {

  /** No difference. */
  public static final RankDifferences NONE = new RankDifferences(List.of(), List.of());

  /**
   * One differing field.
   *
   * @param path "tree[1].hw", "ls.log[3].nid"
   * @param property whether the violated property's definition names the variable or one of the fields
   * @param environment whether it is an environment input (a cause, not a divergence)
   * @param values each rank's value there ("" where the rank has no such field)
   * @param odd the ranks whose value is not their replica's majority value (none when there is no majority)
   */
  public record Field(String path, boolean property, boolean environment, Map<Integer, String> values, Set<Integer> odd) {}

  /** One step down a value: a record field, a function key or a tuple index (1-based). */
  private record Step(String field, TlaValue key, int index) {

    String text() {
      return field != null ? "." + field : key != null ? "[" + key.format() + "]" : "[" + index + "]";
    }

    TlaValue of(TlaValue v) {
      if (field != null) {
        return v instanceof TlaValue.Rec r ? r.fields().get(field) : null;
      }
      if (key != null) {
        return v instanceof TlaValue.Fn f ? f.mapping().get(key) : null;
      }
      return v instanceof TlaValue.Tuple t && index <= t.elements().size() ? t.elements().get(index - 1) : null;
    }
  }

  /**
   * The differences in {@code state} between ranks of one replica; {@code names} are the identifiers of the
   * property's definition, {@code helperNames} those of the operators it uses.
   */
  public static RankDifferences at(TraceState state, TraceAnalysis analysis, Set<String> names, Set<String> helperNames) {
    RankLayout layout = analysis.layout();
    if (layout == null) {
      return NONE;
    }
    Map<Integer, List<Integer>> replicas = new TreeMap<>();
    for (int r = 0; r < layout.ranks(); r++) {
      replicas.computeIfAbsent(layout.replica(r), k -> new ArrayList<>()).add(r);
    }
    Map<String, List<Step>> paths = new LinkedHashMap<>();
    for (String v : analysis.perRankVariables()) {
      TlaValue value = state.variables().get(v);
      for (List<Integer> group : replicas.values()) {
        Map<Integer, TlaValue> byRank = new LinkedHashMap<>();
        for (int r : group) {
          byRank.put(r, CounterexampleView.component(value, r));
        }
        walk(v, new ArrayList<>(), byRank, paths);
      }
    }
    List<Field> closest = new ArrayList<>();
    List<Field> property = new ArrayList<>();
    List<Field> other = new ArrayList<>();
    List<Field> environment = new ArrayList<>();
    paths.forEach((path, steps) -> {
      String variable = path.replaceFirst("[.\\[].*", "");
      TlaValue value = state.variables().get(variable);
      Map<Integer, String> values = new LinkedHashMap<>();
      for (int r = 0; r < layout.ranks(); r++) {
        TlaValue x = CounterexampleView.component(value, r);
        for (Step s : steps) {
          x = x == null ? null : s.of(x);
        }
        values.put(r, x == null ? "" : x.format());
      }
      boolean env = TraceAnalysis.isEnvironment(variable) || steps.stream()
          .anyMatch(s -> s.field() != null && TraceAnalysis.isEnvironment(s.field()));
      boolean field = steps.stream().anyMatch(s -> s.field() != null && names.contains(s.field()));
      boolean named = field || names.contains(variable);
      boolean helper = steps.stream().anyMatch(s -> s.field() != null && helperNames.contains(s.field()));
      Field f = new Field(path, named && !env, env, values, odd(values, replicas.values()));
      (env ? environment : named && helper ? closest : named ? property : other).add(f);
    });
    List<Field> all = new ArrayList<>(closest);
    all.addAll(property);
    all.addAll(other);
    all.addAll(environment);
    List<Integer> ranks = new ArrayList<>();
    for (int r = 0; r < layout.ranks(); r++) {
      ranks.add(r);
    }
    return all.isEmpty() ? NONE : new RankDifferences(ranks, all);
  }

  /** Adds to {@code out} every field below {@code steps} where the ranks' values stop agreeing. */
  private static void walk(String variable, List<Step> steps, Map<Integer, TlaValue> values,
      Map<String, List<Step>> out) {
    if (values.size() < 2 || new LinkedHashSet<>(values.values()).size() == 1) {
      return;
    }
    TlaValue first = values.values().iterator().next();
    List<Step> below = new ArrayList<>();
    if (first instanceof TlaValue.Rec rec && values.values().stream().allMatch(v -> v instanceof TlaValue.Rec r
        && r.fields().keySet().equals(rec.fields().keySet()))) {
      rec.fields().keySet().forEach(k -> below.add(new Step(k, null, 0)));
    } else if (first instanceof TlaValue.Fn fn && values.values().stream().allMatch(v -> v instanceof TlaValue.Fn f
        && f.mapping().keySet().equals(fn.mapping().keySet()))) {
      fn.mapping().keySet().forEach(k -> below.add(new Step(null, k, 0)));
    } else if (values.values().stream().allMatch(v -> v instanceof TlaValue.Tuple)) {
      int shortest = values.values().stream().mapToInt(v -> ((TlaValue.Tuple) v).elements().size()).min().orElse(0);
      for (int i = 1; i <= shortest; i++) {
        below.add(new Step(null, null, i));
      }
    }
    int before = out.size();
    for (Step s : below) {
      Map<Integer, TlaValue> next = new LinkedHashMap<>();
      values.forEach((r, v) -> next.put(r, s.of(v)));
      List<Step> deeper = new ArrayList<>(steps);
      deeper.add(s);
      walk(variable, deeper, next, out);
    }
    if (out.size() == before) {
      // Nothing below tells them apart (other fields, another length, a scalar): this is the field.
      StringBuilder path = new StringBuilder(variable);
      steps.forEach(s -> path.append(s.text()));
      out.putIfAbsent(path.toString(), List.copyOf(steps));
    }
  }

  /** Per replica, the ranks whose value is not the replica's strict majority value. */
  private static Set<Integer> odd(Map<Integer, String> values, Iterable<List<Integer>> replicas) {
    Set<Integer> odd = new TreeSet<>();
    for (List<Integer> group : replicas) {
      Map<String, Integer> count = new HashMap<>();
      group.forEach(r -> count.merge(values.get(r), 1, Integer::sum));
      if (count.size() < 2) {
        continue;
      }
      int best = count.values().stream().max(Integer::compare).orElse(0);
      List<String> majority = count.entrySet().stream().filter(e -> e.getValue() == best).map(Map.Entry::getKey).toList();
      if (majority.size() == 1) {
        group.stream().filter(r -> !values.get(r).equals(majority.get(0))).forEach(odd::add);
      }
    }
    return odd;
  }
}
