package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Reading one rank's part of a {@code HiCacheSync.tla} state as TLC prints it: a per-rank variable (a
 * function or a tuple of ranks), a record's field, a sequence (a tuple, or a function TLC printed for one),
 * a number, a rank's posted call; an absent value reads as null, empty or 0. A class of its own so that
 * {@link SpecSchedule} reads as the schedule it extracts, not as value plumbing.
 */
final class TraceReads {
  private TraceReads() {}

  /** Operations of rank r queued for S7 in state s: issued or stopped, not yet queried. */
  static int queuedS7(TraceState s, int r) {
    int n = 0;
    for (TlaValue op : elements(rank(s, "pf", r))) {
      if (field(op, "st") instanceof TlaValue.Str st && (st.value().equals("issued") || st.value().equals("term"))
          && field(op, "q") instanceof TlaValue.Bool q && !q.value()) {
        n++;
      }
    }
    return n;
  }

  /** Rank r's posted call of thread {@code thread} in state s, or null when it has none. */
  static TlaValue.Rec posted(TraceState s, int r, String thread) {
    TlaValue call = field(rank(s, "coll", r), thread);
    return call instanceof TlaValue.Rec rec && !(rec.fields().get("site") instanceof TlaValue.Str site
        && site.value().equals("none")) ? rec : null;
  }

  /** The entries at the tail of {@code now} that {@code before} (after dropping some head) does not end with. */
  static List<TlaValue> tailAppended(TlaValue before, TlaValue now) {
    if (!(before instanceof TlaValue.Tuple b) || !(now instanceof TlaValue.Tuple n)) {
      return List.of();
    }
    for (int drop = 0; drop <= b.elements().size(); drop++) {
      List<TlaValue> rest = b.elements().subList(drop, b.elements().size());
      if (n.elements().size() >= rest.size() && n.elements().subList(0, rest.size()).equals(rest)) {
        return n.elements().subList(rest.size(), n.elements().size());
      }
    }
    return n.elements();
  }

  static TlaValue rank(TraceState s, String variable, int r) {
    TlaValue v = s.variables().get(variable);
    if (v instanceof TlaValue.Fn f) {
      return f.mapping().get(new TlaValue.Int(r));
    }
    if (v instanceof TlaValue.Tuple t && r < t.elements().size()) {
      return t.elements().get(r);
    }
    return null;
  }

  static TlaValue field(TlaValue v, String name) {
    return v instanceof TlaValue.Rec rec ? rec.fields().get(name) : null;
  }

  static List<TlaValue> elements(TlaValue v) {
    if (v instanceof TlaValue.Tuple t) {
      return t.elements();
    }
    if (v instanceof TlaValue.SetValue set) {
      return set.elements();
    }
    if (v instanceof TlaValue.Fn f) { // a sequence TLC printed as a function (1 :> x @@ 2 :> y)
      List<TlaValue> out = new ArrayList<>();
      for (int i = 1; f.mapping().containsKey(new TlaValue.Int(i)); i++) {
        out.add(f.mapping().get(new TlaValue.Int(i)));
      }
      return out;
    }
    return List.of();
  }

  static int length(TlaValue v) {
    return elements(v).size();
  }

  static long number(TlaValue v) {
    return v instanceof TlaValue.Int i ? i.value() : 0;
  }
}
