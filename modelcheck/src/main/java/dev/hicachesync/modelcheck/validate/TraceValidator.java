package dev.hicachesync.modelcheck.validate;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.TlcJob;
import dev.hicachesync.modelcheck.TlcOutput;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.TlcRunner;
import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.Workspace;
import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import dev.hicachesync.modelcheck.value.TlaValueParser;
import dev.hicachesync.trace.Trace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a trace against {@code spec/TraceHiCacheSync.tla} (with PP > 1 {@code spec/TraceHiCachePipeline.tla})
 * with TLC (one worker, deadlock checking off).
 *
 * <p>Verdicts (TLC-NOTES, "Trace validation within this fork"): {@code TraceNotFullyMatched} violated (exit
 * 12) = accepted; another invariant violated = a behaviour that matches the trace breaks it; a completed
 * search (exit 0) = rejected, and the largest {@code l} that the constraint {@code TraceProgress} printed
 * names the first event no behaviour matches.
 */
public final class TraceValidator {
  /** The invariant whose violation means "accepted". */
  public static final String MATCHED = "TraceNotFullyMatched";
  private static final String MARK = "\"TRACE-AT\"";
  private static final int MAX_ALTERNATIVES = 4;

  private final Workspace workspace;
  private final TlcRunner runner;
  private final Duration timeLimit;

  /** A validator running TLC with {@code runner} in {@code workspace}'s directories. */
  public TraceValidator(Workspace workspace, TlcRunner runner, Duration timeLimit) {
    this.workspace = workspace;
    this.runner = runner;
    this.timeLimit = timeLimit;
  }

  /** The directory the run {@code name} writes its module, cfg and TLC files into. */
  public Path runRoot(String name) {
    return workspace.work().resolve("trace-" + name);
  }

  /** Events per window of a trace of a run's own loop when none is asked for ({@link #validate(Trace, String, String, int)}). */
  public static final int DEFAULT_WINDOW = 2000;

  /** Validates {@code trace} (read from {@code source}) in run directory {@code trace-<name>}. */
  public Validation validate(Trace trace, String name, String source) throws IOException, InterruptedException {
    return validate(trace, name, source, DEFAULT_WINDOW);
  }

  /**
   * Validates {@code trace}; a trace of a run's own loop ({@link RunTraces}) longer than {@code window} events
   * (0: no limit) is validated in windows of that many events, each starting from the state TLC reached at the
   * end of the previous one (see {@link #windows}).
   */
  public Validation validate(Trace trace, String name, String source, int window)
      throws IOException, InterruptedException {
    List<SpecEvent> events = SpecEvents.merge(trace);
    if (RunTraces.applies(trace.header()) && window > 0 && events.size() > window) {
      return windows(trace, name, source, events, window);
    }
    return once(trace, name, source, events, null, runRoot(name));
  }

  /**
   * A long trace of a run's own loop in windows of {@code window} events. Sound and complete because {@code
   * TraceHiCacheRun.tla} is deterministic given the trace: each event has at most one successor state (every
   * variable's next value is a function of the state and the event), so the states that match a prefix of the
   * trace are at most one, the state TLC reached at the end of the window (the last state of its
   * TraceNotFullyMatched counterexample). Starting the next window there (TraceLog's TraceStart) explores
   * exactly the states one pass would explore after that prefix: the verdict, the first event rejected, the
   * invariant broken are the same. The windows' distinct states add up to one pass's (each window's initial
   * state is the previous window's last).
   */
  private Validation windows(Trace trace, String name, String source, List<SpecEvent> events, int window)
      throws IOException, InterruptedException {
    String start = null;
    long distinct = 0;
    long generated = 0;
    double seconds = 0;
    TlcResult last = null;
    for (int from = 0, k = 1; from < events.size(); from += window, k++) {
      List<SpecEvent> part = events.subList(from, Math.min(events.size(), from + window));
      Validation v = once(trace, name, source, part, start, runRoot(name).resolve("w" + k));
      last = v.tlc().orElse(null);
      if (v.outcome() != Validation.Outcome.ACCEPTED) {
        return new Validation(v.outcome(), events.size(), v.event(), v.invariant(), v.allowed(),
            v.message() + (v.outcome() == Validation.Outcome.TLC_FAILED ? " (window " + k + ", events " + (from + 1)
                + ".." + (from + part.size()) + ")" : ""), v.tlc(), SpecEvents.firstDisagreement(events));
      }
      distinct += last.distinct() - (from > 0 ? 1 : 0); // the window's initial state is the previous one's last
      generated += last.generated();
      seconds += last.seconds();
      start = endState(last);
      if (start == null) {
        return failed(events, "window " + k + " was accepted, but TLC printed no final state to start the next from");
      }
    }
    TlcResult sum = new TlcResult(last.exitCode(), last.verdict(), distinct, generated, events.size(), seconds,
        Optional.empty(), "", last.log(), List.of());
    return new Validation(Validation.Outcome.ACCEPTED, events.size(), Optional.empty(), "", List.of(), "",
        Optional.of(sum), SpecEvents.firstDisagreement(events));
  }

  /** {@code [T |-> ..., lastRecv |-> ...]}: the last state of an accepted window's run, as TLA+ text, or null. */
  static String endState(TlcResult r) {
    if (r.trace().isEmpty() || r.trace().get().length() == 0) {
      return null;
    }
    TraceState s = r.trace().get().states().get(r.trace().get().length() - 1);
    TlaValue t = s.variables().get("T");
    TlaValue recv = s.variables().get("lastRecv");
    return t == null || recv == null ? null : "[T |-> " + t.format() + ", lastRecv |-> " + recv.format() + "]";
  }

  /** One TLC run over {@code events} (starting in {@code start}, null: the initial state) in {@code dir}. */
  private Validation once(Trace trace, String name, String source, List<SpecEvent> events, String start, Path dir)
      throws IOException, InterruptedException {
    String spec = TraceModule.specOf(trace.header()); // unified: TraceHiCacheUnified; PP > 1: TraceHiCachePipeline
    Path template = workspace.spec().resolve(TraceModule.templateOf(trace.header()));
    if (!Files.isRegularFile(template) || !Files.isRegularFile(workspace.spec().resolve(spec + ".tla"))) {
      return failed(events, "trace spec not found: " + template.getParent().resolve(spec + ".tla")
          + " and its cfg template are needed");
    }
    Path cfg = TraceModule.write(dir, source, trace.header(), events, template, start);
    TlcJob job = new TlcJob(workspace.work().relativize(dir.resolve("tlc")).toString(), spec, cfg,
        List.of(workspace.spec(), dir), workspace.work(), 1, timeLimit, List.of());
    TlcResult r;
    try {
      r = runner.run(job);
    } catch (BadInputException e) {
      return failed(events, e.getMessage());
    }
    return interpret(events, r);
  }

  /** Turns a TLC result on the trace spec into a validation outcome. */
  static Validation interpret(List<SpecEvent> events, TlcResult r) {
    Verdict v = r.verdict();
    int n = events.size();
    if (v.kind() == Verdict.Kind.VIOLATES && v.property().equals(MATCHED)) {
      return new Validation(Validation.Outcome.ACCEPTED, n, Optional.empty(), "", List.of(), "", Optional.of(r), SpecEvents.firstDisagreement(events));
    }
    if (v.kind() == Verdict.Kind.VIOLATES) {
      int l = r.trace().map(t -> t.states().get(t.length() - 1)).map(TraceValidator::lOf).orElse(1);
      Optional<SpecEvent> at = l >= 2 && l - 2 < n ? Optional.of(events.get(l - 2)) : Optional.empty();
      return new Validation(Validation.Outcome.INVARIANT_BROKEN, n, at, v.property(), List.of(), "", Optional.of(r), SpecEvents.firstDisagreement(events));
    }
    if (v.kind() == Verdict.Kind.HOLDS) {
      Progress p = progress(TlcOutput.of(r.output()).plain());
      int l = Math.max(1, Math.min(p.maxL, n));
      SpecEvent e = events.get(l - 1);
      return new Validation(Validation.Outcome.REJECTED, n, Optional.of(e), "", p.allowed(e), "", Optional.of(r), SpecEvents.firstDisagreement(events));
    }
    String why = v.kind() == Verdict.Kind.DEADLOCK ? "TLC reported a deadlock, but the trace cfg turns deadlock"
        + " checking off" : r.message();
    return new Validation(Validation.Outcome.TLC_FAILED, n, Optional.empty(), "", List.of(), why, Optional.of(r), SpecEvents.firstDisagreement(events));
  }

  private static Validation failed(List<SpecEvent> events, String message) {
    return new Validation(Validation.Outcome.TLC_FAILED, events.size(), Optional.empty(), "", List.of(), message,
        Optional.empty(), SpecEvents.firstDisagreement(events));
  }

  private static int lOf(TraceState s) {
    TlaValue l = s.variables().get("l");
    return l instanceof TlaValue.Int i ? (int) i.value() : 1;
  }

  /** The largest l printed by TraceProgress and the states printed there. */
  record Progress(int maxL, List<TlaValue> posted) {
    /** Distinct renderings of what the members of {@code e} had posted, at most a few. */
    List<String> allowed(SpecEvent e) {
      Set<String> out = new LinkedHashSet<>();
      for (TlaValue p : posted) {
        out.add(render(p, e.ranks()));
        if (out.size() == MAX_ALTERNATIVES) {
          break;
        }
      }
      return new ArrayList<>(out);
    }
  }

  /**
   * Reads the {@code <<"TRACE-AT", l, Posted>>} values the trace spec printed ({@code PrintT}: TLC prints them
   * outside its {@code -tool} messages, among {@code output}'s plain lines).
   */
  static Progress progress(List<String> output) {
    String text = String.join("\n", output);
    int max = 0;
    List<TlaValue> at = new ArrayList<>();
    for (int i = text.indexOf(MARK); i >= 0; i = text.indexOf(MARK, i + MARK.length())) {
      int start = text.lastIndexOf("<<", i);
      int end = closing(text, start);
      if (start < 0 || end < 0) {
        continue;
      }
      TlaValue v;
      try {
        v = TlaValueParser.parse(text.substring(start, end));
      } catch (IllegalArgumentException unparsable) {
        continue;
      }
      if (!(v instanceof TlaValue.Tuple t) || t.elements().size() != 3
          || !(t.elements().get(1) instanceof TlaValue.Int li)) {
        continue;
      }
      int l = (int) li.value();
      if (l > max) {
        max = l;
        at.clear();
      }
      if (l == max) {
        at.add(t.elements().get(2));
      }
    }
    return new Progress(max, at);
  }

  /** Index just past the {@code >>} closing the {@code <<} at {@code start}, or -1. */
  private static int closing(String s, int start) {
    if (start < 0) {
      return -1;
    }
    int depth = 0;
    for (int i = start; i + 1 < s.length(); i++) {
      if (s.charAt(i) == '"') {
        i = s.indexOf('"', i + 1);
        if (i < 0) {
          return -1;
        }
      } else if (s.startsWith("<<", i)) {
        depth++;
        i++;
      } else if (s.startsWith(">>", i)) {
        depth--;
        i++;
        if (depth == 0) {
          return i + 1;
        }
      }
    }
    return -1;
  }

  /** "rank 0: sched S1 stage 1 on attn_cp <<0>>, pf none; rank 1: ..." for the given ranks (all if empty). */
  static String render(TlaValue posted, List<Integer> ranks) {
    if (!(posted instanceof TlaValue.Fn f)) {
      return posted.format();
    }
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<TlaValue, TlaValue> e : f.mapping().entrySet()) {
      if (!(e.getKey() instanceof TlaValue.Int r) || (!ranks.isEmpty() && !ranks.contains((int) r.value()))) {
        continue;
      }
      sb.append(sb.length() == 0 ? "" : "; ").append("rank ").append(r.value()).append(": ");
      if (e.getValue() instanceof TlaValue.Rec rec) {
        List<String> threads = new ArrayList<>();
        for (Map.Entry<String, TlaValue> th : rec.fields().entrySet()) {
          threads.add(th.getKey() + " " + call(th.getValue()));
        }
        sb.append(String.join(", ", threads));
      } else {
        sb.append(e.getValue().format());
      }
    }
    return sb.toString();
  }

  private static String call(TlaValue c) {
    if (c instanceof TlaValue.Tuple t && t.elements().size() == 4) {
      return unquote(t.elements().get(0)) + " stage " + t.elements().get(1).format() + " on "
          + unquote(t.elements().get(2)) + " " + t.elements().get(3).format();
    }
    return unquote(c);
  }

  private static String unquote(TlaValue v) {
    return v instanceof TlaValue.Str s ? s.value() : v.format();
  }
}
