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
import java.util.Set;

/**
 * A TLC counterexample arranged for the swimlane page: the bug in words, lanes, one row per state with
 * each rank's changes, the collective the step completed and the pipeline messages it sent, the state
 * from which the ranks' replicated state differs (and the environment inputs before it), the violating
 * state with every field in which the ranks differ there, who waits on whom at a deadlock, and the loop
 * of a liveness counterexample.
 *
 * @param model the model's name
 * @param verdict what TLC found ("violates TreeAgreement", "deadlock")
 * @param story the bug in words ({@link Story#NONE} when unknown)
 * @param lanes one per rank (empty when the trace has no per-rank variable)
 * @param rows one per state, state 1 first
 * @param firstDivergence the state from which two ranks of one replica differ up to the end, or 0
 * @param causes the environment inputs some ranks got and others did not, up to {@code firstDivergence}
 *     (or the end), one line each ("state 5 BatchFills: rank 0 lenv.bf=\"early\"")
 * @param violating the state the verdict is about: the last one
 * @param ending how the behaviour goes on after the last state ("" for a safety prefix)
 * @param loopTarget for a lasso, the state the behaviour goes back to after the last one; 0 otherwise
 * @param differences at the violating state, every field in which ranks of one replica differ
 * @param states every state in full: per-rank variables split by rank, the others as "global"
 * @param waiting at a deadlock, each call still posted with the members that never posted on it
 */
public record CounterexampleView(String model, String verdict, Story story, List<Lane> lanes, List<Row> rows,
    int firstDivergence, List<String> causes, int violating, String ending, int loopTarget,
    RankDifferences differences, List<FullState> states, List<Waiting> waiting) {

  /**
   * One state of the trace: what the step to it changed, lane by lane.
   *
   * @param quiet whether the step only posted calls (it changed nothing but {@code coll} and {@code pc})
   */
  public record Row(int state, String action, List<List<String>> perRank, List<String> global,
      Optional<Collective> collective, List<String> diverged, List<Message> messages, boolean quiet) {}

  /**
   * A pipeline message: sent by rank {@code from} to the next stage's rank {@code to} in this step, or
   * taken off {@code to}'s channel ({@code received}).
   */
  public record Message(int from, int to, String text, boolean received) {}

  /**
   * A call still posted at a deadlock, and the group's members that are not posted on it.
   *
   * @param call "rank 0 sched: S1 MIN on tp {0, 1, 2, 3}, sent <<0>>"
   * @param missing each member not posted there, with what its thread is doing instead ("idle",
   *     "posted RECV MAX on domain {0, 1}")
   */
  public record Waiting(int rank, String thread, String call, Map<Integer, String> missing) {}

  /** A whole state: global variables, and each rank's component of every per-rank variable. */
  public record FullState(int state, String action, Map<String, String> global, List<Map<String, String>> ranks) {}

  /** Builds the view without the story (a trace of unknown origin). */
  public static CounterexampleView of(String model, String verdict, ErrorTrace trace, Topology topology) {
    return of(model, verdict, trace, topology, Story.NONE);
  }

  /** Builds the view; {@code topology} labels the lanes and gives the sync domains (null: inferred). */
  public static CounterexampleView of(String model, String verdict, ErrorTrace trace, Topology topology, Story story) {
    RankLayout given = RankLayout.of(topology);
    TraceAnalysis analysis = new TraceAnalysis(trace, given);
    RankLayout layout = analysis.layout();
    int ranks = layout == null ? 0 : layout.ranks();
    List<Lane> lanes = Lane.of(ranks, topology);
    List<Row> rows = new ArrayList<>();
    int first = 0;
    List<TraceState> states = trace.states();
    boolean pipeline = layout != null && layout.hasSeveralStages() && analysis.perRankVariables().contains("chan");
    for (int i = 0; i < analysis.steps().size(); i++) {
      TraceAnalysis.Step s = analysis.steps().get(i);
      Optional<Collective> c = i == 0 ? Optional.empty() : CompletedCall.between(states.get(i - 1), states.get(i));
      c = c.map(x -> x.vectors().isEmpty() ? x
          : x.labelled(story.labels(x.site(), x.vectors().values().iterator().next().size())));
      List<Message> messages = pipeline && i > 0 ? messages(states.get(i - 1), states.get(i), layout) : List.of();
      rows.add(new Row(s.state().number(), s.state().action(), s.perRank(), s.global(), c, s.diverged(), messages,
          i > 0 && c.isEmpty() && onlyPosts(s)));
      if (first == 0 && !s.diverged().isEmpty()) {
        first = s.state().number();
      }
    }
    List<FullState> full = new ArrayList<>();
    for (TraceState s : states) {
      full.add(fullState(s, analysis, ranks));
    }
    TraceState last = states.get(states.size() - 1);
    List<Set<String>> names = propertyNames(story);
    RankDifferences differences = RankDifferences.at(last, analysis, names.get(0), names.get(1));
    int loop = trace.ending() == ErrorTrace.Ending.LOOP ? trace.loopTarget() : 0;
    return new CounterexampleView(model, verdict, story, lanes, rows, first, causes(rows, first), last.number(),
        trace.endingNote(), loop, differences, full, verdict.startsWith("deadlock") ? waiting(last) : List.of());
  }

  /** The identifiers the property's own definition (first) and the operators it uses (second) write. */
  private static List<Set<String>> propertyNames(Story story) {
    List<Set<String>> out = List.of(new java.util.LinkedHashSet<>(), new java.util.LinkedHashSet<>());
    for (int i = 0; i < story.definitions().size(); i++) {
      SpecSource.Definition d = story.definitions().get(i);
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*")
          .matcher(d.text().substring(d.text().indexOf("==") + 2));
      while (m.find()) {
        out.get(i == 0 ? 0 : 1).add(m.group());
      }
    }
    return out;
  }

  /** Whether the step changed only the posted calls and program counters. */
  private static boolean onlyPosts(TraceAnalysis.Step s) {
    List<String> all = new ArrayList<>(s.global());
    s.perRank().forEach(all::addAll);
    return !all.isEmpty() && all.stream().allMatch(c -> root(c).equals("coll") || root(c).equals("pc"));
  }

  /** The variable a change line is about: "coll" of "coll.sched.site=..." or "coll[*].sched=...". */
  static String root(String change) {
    int end = 0;
    while (end < change.length() && (Character.isLetterOrDigit(change.charAt(end)) || change.charAt(end) == '_')) {
      end++;
    }
    return change.substring(0, end);
  }

  /** The per-rank environment changes of the rows up to {@code until} (all rows when 0). */
  private static List<String> causes(List<Row> rows, int until) {
    List<String> out = new ArrayList<>();
    for (Row row : rows) {
      if (row.state() == 1 || (until > 0 && row.state() > until)) {
        continue;
      }
      for (int r = 0; r < row.perRank().size(); r++) {
        for (String change : row.perRank().get(r)) {
          if (TraceAnalysis.isEnvironment(root(change))) {
            out.add("state " + row.state() + " " + row.action() + ": rank " + r + " " + change);
          }
        }
      }
    }
    return out;
  }

  /**
   * The pipeline messages of a step: {@code chan[q]} holds the messages from {@code q}'s previous stage
   * (the same position one stage up) not yet received; what the step appended was sent, what it took off
   * the head was received.
   */
  private static List<Message> messages(TraceState before, TraceState after, RankLayout layout) {
    List<Message> out = new ArrayList<>();
    TlaValue b = before.variables().get("chan");
    TlaValue a = after.variables().get("chan");
    for (int q = layout.stageSize(); q < layout.ranks(); q++) {
      if (!(component(b, q) instanceof TlaValue.Tuple was) || !(component(a, q) instanceof TlaValue.Tuple now)) {
        continue;
      }
      List<TlaValue> w = was.elements();
      List<TlaValue> n = now.elements();
      int from = q - layout.stageSize();
      if (n.size() > w.size() && n.subList(0, w.size()).equals(w)) {
        for (TlaValue m : n.subList(w.size(), n.size())) {
          out.add(new Message(from, q, m.format(), false));
        }
      } else if (n.size() < w.size() && w.subList(w.size() - n.size(), w.size()).equals(n)) {
        for (TlaValue m : w.subList(0, w.size() - n.size())) {
          out.add(new Message(from, q, m.format(), true));
        }
      }
    }
    return out;
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

  /**
   * The calls posted in {@code coll[rank][thread]} (module Collectives) and, for each, the members of its
   * group that are not posted on the same group and site; empty for another shape of {@code coll}.
   */
  private static List<Waiting> waiting(TraceState state) {
    List<Waiting> out = new ArrayList<>();
    if (!(state.variables().get("coll") instanceof TlaValue.Fn perRank)) {
      return out;
    }
    perRank.mapping().forEach((rank, threads) -> {
      if (!(threads instanceof TlaValue.Rec byThread) || !(rank instanceof TlaValue.Int r)) {
        return;
      }
      byThread.fields().forEach((thread, call) -> {
        if (!(call instanceof TlaValue.Rec c) || !(c.fields().get("site") instanceof TlaValue.Str site)
            || site.value().equals("none")) {
          return;
        }
        TlaValue grp = c.fields().get("grp");
        Map<Integer, String> missing = new LinkedHashMap<>();
        if (grp instanceof TlaValue.Rec g && g.fields().get("m") instanceof TlaValue.SetValue members) {
          for (TlaValue m : members.elements()) {
            TlaValue theirs = perRank.mapping().get(m) instanceof TlaValue.Rec t ? t.fields().get(thread) : null;
            boolean same = theirs instanceof TlaValue.Rec tc && grp.equals(tc.fields().get("grp"))
                && site.equals(tc.fields().get("site"));
            if (!same && m instanceof TlaValue.Int mi) {
              missing.put((int) mi.value(), doing(theirs, thread));
            }
          }
        }
        out.add(new Waiting((int) r.value(), thread, describe(r.value(), thread, c), missing));
      });
    });
    return out;
  }

  /** "sched idle" or "sched posted RECV MAX on domain {0, 1}". */
  private static String doing(TlaValue call, String thread) {
    if (!(call instanceof TlaValue.Rec c) || !(c.fields().get("site") instanceof TlaValue.Str site)
        || site.value().equals("none")) {
      return thread + " posted nothing";
    }
    return thread + " posted " + site.value() + " " + text(c.fields().get("op")) + group(c.fields().get("grp"));
  }

  private static String describe(long rank, String thread, TlaValue.Rec c) {
    return "rank " + rank + " " + thread + ": " + text(c.fields().get("site")) + " " + text(c.fields().get("op"))
        + group(c.fields().get("grp")) + (c.fields().get("val") == null ? "" : ", sent " + c.fields().get("val").format());
  }

  private static String group(TlaValue grp) {
    return grp instanceof TlaValue.Rec g ? " on " + text(g.fields().get("kind")) + " "
        + (g.fields().get("m") == null ? "" : g.fields().get("m").format()) : "";
  }

  private static String text(TlaValue v) {
    return v instanceof TlaValue.Str s ? s.value() : v == null ? "" : v.format();
  }

  static TlaValue component(TlaValue value, int rank) {
    return value instanceof TlaValue.Tuple t ? t.elements().get(rank)
        : ((TlaValue.Fn) value).mapping().get(new TlaValue.Int(rank));
  }

  /** The posted calls as lines, for a deadlock: who waits on what. */
  public List<String> posted() {
    return waiting.stream().map(Waiting::call).toList();
  }
}
