package dev.hicachesync.report.swimlane;

import dev.hicachesync.topology.Topology;
import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.RankLayout;
import dev.hicachesync.modelcheck.trace.TraceAnalysis;
import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * A TLC counterexample arranged for the swimlane page: lanes, one row per state with each rank's
 * changes and the collective the step completed, the step where the ranks first differ, the
 * violating state and, there, the variables in which two ranks of one sync domain differ.
 *
 * @param model the model's name
 * @param verdict what TLC found ("violates TreeAgreement", "deadlock")
 * @param lanes one per rank (empty when the trace has no per-rank variable)
 * @param rows one per state, state 1 first
 * @param firstDivergence the state from which two ranks of one domain differ up to the end, or 0
 * @param violating the state the verdict is about: the last one
 * @param ending how the behaviour goes on after the last state ("" for a safety prefix)
 * @param difference at the violating state, two ranks of one domain and where they differ, if any do
 * @param states every state in full: per-rank variables split by rank, the others as "global"
 * @param posted in the last state, the collective calls still posted, one line per rank and thread ("rank 0
 *     sched: S1 MIN on tp {0, 1, 2, 3}"): for a deadlock, who waits on what
 */
public record CounterexampleView(String model, String verdict, List<Lane> lanes, List<Row> rows,
    int firstDivergence, int violating, String ending, Optional<Difference> difference, List<FullState> states,
    List<String> posted) {

  /** One state of the trace: what the step to it changed, lane by lane. */
  public record Row(int state, String action, List<List<String>> perRank, List<String> global,
      Optional<Collective> collective, List<String> diverged) {}

  /** Two ranks of one domain and the per-rank variables that differ between them, values side by side. */
  public record Difference(int rankA, int rankB, List<Differing> variables) {}

  /** One differing variable: its name and the two ranks' values. */
  public record Differing(String variable, String valueA, String valueB) {}

  /** A whole state: global variables, and each rank's component of every per-rank variable. */
  public record FullState(int state, String action, Map<String, String> global, List<Map<String, String>> ranks) {}

  /** Builds the view; {@code topology} labels the lanes and gives the sync domains (null: inferred). */
  public static CounterexampleView of(String model, String verdict, ErrorTrace trace, Topology topology) {
    RankLayout given = topology == null || topology.worldSize() < 2 ? null
        : new RankLayout(topology.worldSize(), topology.cpTpGroup(0).size());
    TraceAnalysis analysis = new TraceAnalysis(trace, given);
    RankLayout layout = analysis.layout();
    int ranks = layout == null ? 0 : layout.ranks();
    List<Lane> lanes = Lane.of(ranks, topology);
    List<Row> rows = new ArrayList<>();
    int first = 0;
    List<TraceState> states = trace.states();
    for (int i = 0; i < analysis.steps().size(); i++) {
      TraceAnalysis.Step s = analysis.steps().get(i);
      Optional<Collective> c = i == 0 ? Optional.empty() : CompletedCall.between(states.get(i - 1), states.get(i));
      rows.add(new Row(s.state().number(), s.state().action(), s.perRank(), s.global(), c, s.diverged()));
      if (first == 0 && !s.diverged().isEmpty()) {
        first = s.state().number();
      }
    }
    List<FullState> full = new ArrayList<>();
    for (TraceState s : states) {
      full.add(fullState(s, analysis, ranks));
    }
    TraceState last = states.get(states.size() - 1);
    Optional<Difference> difference = difference(last, analysis, layout, (a, b) -> layout.domain(a) == layout.domain(b));
    if (difference.isEmpty() && topology != null && topology.pp() > 1 && layout != null
        && layout.ranks() == topology.worldSize()) {
      // Pipeline stages keep their own replica of the tree (HiCachePipeline compares any two ranks of a
      // replica, any stages): compare a rank with the same position in another stage.
      int perStage = topology.tpSize();
      difference = difference(last, analysis, layout, (a, b) -> a % perStage == b % perStage);
    }
    return new CounterexampleView(model, verdict, lanes, rows, first, last.number(), trace.endingNote(),
        difference, full, posted(last));
  }

  private static FullState fullState(TraceState s, TraceAnalysis analysis, int ranks) {
    Map<String, String> global = new LinkedHashMap<>();
    List<Map<String, String>> perRank = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      perRank.add(new LinkedHashMap<>());
    }
    s.variables().forEach((name, value) -> {
      if (analysis.perRankVariables().contains(name)) {
        for (int r = 0; r < ranks; r++) {
          perRank.get(r).put(name, component(value, r).format());
        }
      } else {
        global.put(name, value.format());
      }
    });
    return new FullState(s.number(), s.action(), global, perRank);
  }

  /** The first pair of ranks of one domain that differ in {@code state}, with every variable they differ in. */
  private static Optional<Difference> difference(TraceState state, TraceAnalysis analysis, RankLayout layout,
      BiPredicate<Integer, Integer> comparable) {
    if (layout == null) {
      return Optional.empty();
    }
    for (int a = 0; a < layout.ranks(); a++) {
      for (int b = a + 1; b < layout.ranks(); b++) {
        if (!comparable.test(a, b)) {
          continue;
        }
        List<Differing> vars = new ArrayList<>();
        for (String v : analysis.perRankVariables()) {
          TlaValue va = component(state.variables().get(v), a);
          TlaValue vb = component(state.variables().get(v), b);
          if (!va.equals(vb)) {
            vars.add(new Differing(v, va.format(), vb.format()));
          }
        }
        if (!vars.isEmpty()) {
          return Optional.of(new Difference(a, b, vars));
        }
      }
    }
    return Optional.empty();
  }

  /** The calls posted in {@code coll[rank][thread]} (module Collectives), one line each; empty for another shape. */
  private static List<String> posted(TraceState state) {
    List<String> out = new ArrayList<>();
    if (!(state.variables().get("coll") instanceof TlaValue.Fn perRank)) {
      return out;
    }
    perRank.mapping().forEach((rank, threads) -> {
      if (threads instanceof TlaValue.Rec byThread) {
        byThread.fields().forEach((thread, call) -> {
          if (call instanceof TlaValue.Rec c && c.fields().get("site") instanceof TlaValue.Str site
              && !site.value().equals("none")) {
            TlaValue grp = c.fields().get("grp");
            String group = grp instanceof TlaValue.Rec g ? " on " + text(g.fields().get("kind")) + " "
                + (g.fields().get("m") == null ? "" : g.fields().get("m").format()) : "";
            out.add("rank " + rank.format() + " " + thread + ": " + site.value() + " " + text(c.fields().get("op")) + group
                + (c.fields().get("val") == null ? "" : ", sent " + c.fields().get("val").format()));
          }
        });
      }
    });
    return out;
  }

  private static String text(TlaValue v) {
    return v instanceof TlaValue.Str s ? s.value() : v == null ? "" : v.format();
  }

  private static TlaValue component(TlaValue value, int rank) {
    return value instanceof TlaValue.Tuple t ? t.elements().get(rank)
        : ((TlaValue.Fn) value).mapping().get(new TlaValue.Int(rank));
  }
}
