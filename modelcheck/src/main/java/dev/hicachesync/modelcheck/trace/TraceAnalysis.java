package dev.hicachesync.modelcheck.trace;

import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Splits an error trace by rank: which variables are per-rank, what changed for each rank in each
 * step, and where the ranks of one sync domain diverged.
 *
 * <p>A variable is per-rank when in every state its value is a function with domain exactly
 * 0..N-1 or a tuple of length N, N being the rank count. Divergence is judged on the per-rank
 * variables (record fields one by one) that differ between two ranks of one replica in the last state:
 * the step marked is the first one from which they differ up to the end (ranks that only drift apart
 * for a few steps, such as program counters of ranks running at different speeds, are not marked).
 * Environment inputs ({@link #isEnvironment}) are not divergence but its causes, and are not judged.
 * Pipeline stages, which are not in lockstep, are compared only in sequences (logs, queues), and only at
 * the positions both ranks have.
 */
public final class TraceAnalysis {

  /** What changed in one step. */
  public record Step(TraceState state, List<List<String>> perRank, List<String> global, List<String> diverged) {}

  /** Stands for the variable's name while the changes of all ranks are compared. */
  private static final String NAME = "\u0000";

  private final ErrorTrace trace;
  private final RankLayout layout;
  private final Set<String> perRankVariables;
  private final List<Step> steps;

  /**
   * Analyses {@code trace}; {@code layout} is the model's rank layout, or null to infer the rank
   * count from the trace (the largest N such that some variable is always a function on 0..N-1).
   */
  public TraceAnalysis(ErrorTrace trace, RankLayout layout) {
    this.trace = trace;
    this.layout = chooseLayout(trace, layout);
    this.perRankVariables = new LinkedHashSet<>();
    if (this.layout != null) {
      for (String v : variables(trace)) {
        if (trace.states().stream().allMatch(s -> isRankShaped(s.variables().get(v), this.layout.ranks(), true))) {
          perRankVariables.add(v);
        }
      }
    }
    this.steps = computeSteps();
  }

  /** The layout used, or null when no variable is per-rank. */
  public RankLayout layout() {
    return layout;
  }

  /** The per-rank variables. */
  public Set<String> perRankVariables() {
    return perRankVariables;
  }

  /** One entry per trace state. */
  public List<Step> steps() {
    return steps;
  }

  /** The trace analysed. */
  public ErrorTrace trace() {
    return trace;
  }

  private static RankLayout chooseLayout(ErrorTrace trace, RankLayout given) {
    if (given != null && given.ranks() >= 2) {
      int n = given.ranks();
      boolean fits = variables(trace).stream().anyMatch(v ->
          trace.states().stream().allMatch(s -> isRankShaped(s.variables().get(v), n, false)));
      if (fits) {
        return given;
      }
    }
    int best = 0;
    for (String v : variables(trace)) {
      int size = -1;
      for (TraceState s : trace.states()) {
        TlaValue value = s.variables().get(v);
        int n = value instanceof TlaValue.Fn f ? f.mapping().size() : -1;
        if (n < 2 || !isRankShaped(value, n, false) || (size != -1 && n != size)) {
          size = -1;
          break;
        }
        size = n;
      }
      best = Math.max(best, size);
    }
    if (best < 2) {
      return null;
    }
    // A model whose per-rank variables have another size than its topology: one domain of all.
    return new RankLayout(best, given != null && best % given.domainSize() == 0 ? given.domainSize() : best);
  }

  private static boolean isRankShaped(TlaValue value, int n, boolean allowTuple) {
    if (value instanceof TlaValue.Tuple t) {
      return allowTuple && t.elements().size() == n;
    }
    if (!(value instanceof TlaValue.Fn f) || f.mapping().size() != n) {
      return false;
    }
    for (int r = 0; r < n; r++) {
      if (!f.mapping().containsKey(new TlaValue.Int(r))) {
        return false;
      }
    }
    return true;
  }

  private static TlaValue component(TlaValue value, int rank) {
    return value instanceof TlaValue.Tuple t ? t.elements().get(rank) : ((TlaValue.Fn) value).mapping().get(new TlaValue.Int(rank));
  }

  private static List<String> variables(ErrorTrace trace) {
    Set<String> names = new LinkedHashSet<>();
    trace.states().forEach(s -> names.addAll(s.variables().keySet()));
    return new ArrayList<>(names);
  }

  private List<Step> computeSteps() {
    int ranks = layout == null ? 0 : layout.ranks();
    List<TraceState> states = trace.states();
    List<Step> result = new ArrayList<>();
    for (int i = 0; i < states.size(); i++) {
      Map<String, TlaValue> now = states.get(i).variables();
      Map<String, TlaValue> before = i == 0 ? Map.of() : states.get(i - 1).variables();
      List<List<String>> perRank = new ArrayList<>();
      for (int r = 0; r < ranks; r++) {
        perRank.add(new ArrayList<>());
      }
      List<String> global = new ArrayList<>();
      for (Map.Entry<String, TlaValue> e : now.entrySet()) {
        TlaValue old = before.get(e.getKey());
        if (perRankVariables.contains(e.getKey())) {
          List<List<String>> changes = new ArrayList<>();
          for (int r = 0; r < ranks; r++) {
            TlaValue o = old == null ? null : component(old, r);
            TlaValue n = component(e.getValue(), r);
            changes.add(Objects.equals(o, n) ? List.of() : ValueDiff.describe(NAME, o, n));
          }
          // A change every rank made alike (a lockstep step) is said once, in the shared column.
          List<String> common = new ArrayList<>(changes.get(0));
          changes.forEach(common::retainAll);
          common.forEach(c -> global.add(c.replace(NAME, e.getKey() + "[*]")));
          for (int r = 0; r < ranks; r++) {
            for (String c : changes.get(r)) {
              if (!common.contains(c)) {
                perRank.get(r).add(c.replace(NAME, e.getKey()));
              }
            }
          }
        } else if (!Objects.equals(old, e.getValue())) {
          global.addAll(ValueDiff.describe(e.getKey(), old, e.getValue()));
        }
      }
      result.add(new Step(states.get(i), perRank, global, new ArrayList<>()));
    }
    markDivergence(result);
    return result;
  }

  /**
   * Whether a per-rank variable or record field is an input from the environment (a rank-local clock, a
   * batch-full test, a failed backend: {@code env}, {@code lenv} in the specs): ranks that differ there
   * have been dealt different inputs, which is a cause of divergence, not divergence.
   */
  public static boolean isEnvironment(String name) {
    return name.equals("env") || name.equals("lenv") || name.startsWith("env");
  }

  private void markDivergence(List<Step> result) {
    List<TraceState> states = trace.states();
    for (String v : perRankVariables) {
      if (isEnvironment(v)) {
        continue;
      }
      for (String field : fields(v)) {
        if (isEnvironment(field)) {
          continue;
        }
        boolean sequence = isSequence(v, field);
        int start = states.size();
        String pair = null;
        while (start > 0) {
          String p = differingPair(part(states.get(start - 1).variables().get(v), field), sequence);
          if (p == null) {
            break;
          }
          pair = pair == null ? p : pair;
          start--;
        }
        if (pair != null) {
          result.get(start).diverged().add(v + (field.isEmpty() ? "" : "." + field) + " (" + pair + ")");
        }
      }
    }
  }

  /**
   * Whether the per-rank part {@code v.field} is a sequence that grows and shrinks (a log, a queue): its
   * length is not the same in every state and on every rank.
   */
  private boolean isSequence(String v, String field) {
    int length = -1;
    boolean varies = false;
    for (TraceState s : trace.states()) {
      TlaValue value = part(s.variables().get(v), field);
      for (int r = 0; r < layout.ranks(); r++) {
        if (!(component(value, r) instanceof TlaValue.Tuple t)) {
          return false;
        }
        varies |= length != -1 && t.elements().size() != length;
        length = t.elements().size();
      }
    }
    return varies;
  }

  /**
   * Whether two ranks' values agree: equal, or for ranks of different stages, equal at every position
   * both sequences have (a later stage is behind the earlier one: LogAgree's comparison in the specs).
   */
  static boolean agree(TlaValue a, TlaValue b, boolean prefix) {
    if (prefix && a instanceof TlaValue.Tuple ta && b instanceof TlaValue.Tuple tb) {
      int n = Math.min(ta.elements().size(), tb.elements().size());
      return ta.elements().subList(0, n).equals(tb.elements().subList(0, n));
    }
    return a.equals(b);
  }

  /**
   * The record fields of a per-rank variable whose every component is a record with the same
   * fields (judged one by one: rank-local fields such as an ack queue may differ for a while
   * without the ranks having diverged), else just "" for the whole value.
   */
  private List<String> fields(String v) {
    Set<String> names = null;
    for (TraceState s : trace.states()) {
      TlaValue value = s.variables().get(v);
      for (int r = 0; r < layout.ranks(); r++) {
        if (!(component(value, r) instanceof TlaValue.Rec rec)
            || (names != null && !names.equals(rec.fields().keySet()))) {
          return List.of("");
        }
        names = rec.fields().keySet();
      }
    }
    return names == null ? List.of("") : new ArrayList<>(names);
  }

  /** The per-rank value restricted to {@code field} (a function of the ranks), or the value itself. */
  private TlaValue part(TlaValue value, String field) {
    if (field.isEmpty() || value == null) {
      return value;
    }
    java.util.Map<TlaValue, TlaValue> byRank = new java.util.LinkedHashMap<>();
    for (int r = 0; r < layout.ranks(); r++) {
      byRank.put(new TlaValue.Int(r), ((TlaValue.Rec) component(value, r)).fields().get(field));
    }
    return new TlaValue.Fn(byRank);
  }

  /**
   * "r0≠r1" for the first two ranks of one replica whose components disagree, else null. Ranks of one
   * stage (one sync domain) step in lockstep and are compared in everything; ranks of different stages
   * do not, so they are compared only in sequences, position by position.
   */
  private String differingPair(TlaValue value, boolean sequence) {
    if (value == null) {
      return null;
    }
    for (int r = 0; r < layout.ranks(); r++) {
      for (int s = r + 1; s < layout.ranks(); s++) {
        boolean stages = layout.stage(s) != layout.stage(r);
        if (layout.replica(s) != layout.replica(r) || (stages && !sequence)) {
          continue;
        }
        if (!agree(component(value, r), component(value, s), stages)) {
          return "r" + r + "≠r" + s;
        }
      }
    }
    return null;
  }
}
