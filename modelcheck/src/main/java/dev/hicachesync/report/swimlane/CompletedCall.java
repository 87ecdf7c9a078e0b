package dev.hicachesync.report.swimlane;

import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the collective a TLC step completed, from the spec's {@code coll} variable ({@code
 * coll[rank][thread] = [site, op, val, grp |-> [kind, ch, m], ...]}, module {@code Collectives}).
 *
 * <p>Why from the states: most modules complete every collective in one generic action
 * ({@code SomeCollectiveCompletes}), so the action name does not say which one ran; and where it does
 * ({@code HiCacheSync.tla}'s steps, {@link #STEP_SITES}), only the state has the group, its members and
 * their payloads. In the state before the step, a group whose members are all posted on it can complete;
 * the one that did is the one whose members' calls changed in the step. The result is recomputed as the
 * spec's {@code Result(g)} does: the element-wise MIN or MAX of the payloads.
 */
public final class CompletedCall {

  /**
   * {@code HiCacheSync.tla}'s actions that complete a collective (its {@code SomeCollectiveCompletes}
   * disjuncts), each with the site it completes. The other modules' completing actions say
   * "Collective" in their name.
   */
  static final Map<String, String> STEP_SITES = Map.of("SchedRecvRequests", "RECV", "SchedWritingCheck", "S1",
      "SchedLoadingCheck", "S2", "SchedDrainStorageControlQueues", "S3", "SchedCheckHicacheEvents", "S123",
      "SchedCanTerminatePrefetch", "S4", "SchedCheckPrefetchProgress", "S5", "SchedReleaseAbortedRequest", "S6",
      "PfPrefetchThreadStep", "S7", "AsyncCheckHicacheEvents", "S123");

  private CompletedCall() {}

  /** The names of {@code HiCacheSync.tla}'s actions that complete a collective ({@link #STEP_SITES}' keys). */
  public static java.util.Set<String> stepActions() {
    return STEP_SITES.keySet();
  }

  /** The collective completed between {@code before} and {@code after}, if the step completed one. */
  public static Optional<Collective> between(TraceState before, TraceState after) {
    if (!(before.variables().get("coll") instanceof TlaValue.Fn perRank)) {
      return Optional.empty();
    }
    TlaValue afterColl = after.variables().get("coll");
    String namedSite = STEP_SITES.get(after.action());
    Collective fallback = null;
    for (Map.Entry<TlaValue, TlaValue> rank : perRank.mapping().entrySet()) {
      if (!(rank.getValue() instanceof TlaValue.Rec threads)) {
        continue;
      }
      for (Map.Entry<String, TlaValue> thread : threads.fields().entrySet()) {
        Optional<Collective> c = ready(perRank, thread.getKey(), thread.getValue());
        if (c.isEmpty()) {
          continue;
        }
        if (changed(perRank, afterColl, c.get())) {
          return c;
        }
        if (fallback == null && (namedSite == null || namedSite.equals(c.get().site()))) {
          fallback = c.get();
        }
      }
    }
    // A call re-posted unchanged (the next step's RECV with the same payload) leaves coll as it was:
    // then the action's name says whether a collective completed (and, for a named step, at which
    // site), and the ready group is the one.
    return completes(after.action()) ? Optional.ofNullable(fallback) : Optional.empty();
  }

  /** Whether a step taken by {@code action} completes a collective, as its name says. */
  static boolean completes(String action) {
    return STEP_SITES.containsKey(action) || action.contains("Collective");
  }

  /** The collective of {@code call}'s group if every member is posted on it at the same site. */
  private static Optional<Collective> ready(TlaValue.Fn perRank, String thread, TlaValue call) {
    String site = text(field(call, "site"));
    TlaValue grp = field(call, "grp");
    if (site == null || site.equals("none") || !(field(grp, "m") instanceof TlaValue.SetValue members)) {
      return Optional.empty();
    }
    List<Integer> ranks = new ArrayList<>();
    Map<Integer, String> sent = new LinkedHashMap<>();
    List<TlaValue.Tuple> payloads = new ArrayList<>();
    Map<Integer, List<Long>> vectors = new LinkedHashMap<>();
    for (TlaValue m : members.elements()) {
      TlaValue mine = field(perRank.mapping().get(m), thread);
      if (!(m instanceof TlaValue.Int r) || mine == null || !grp.equals(field(mine, "grp"))
          || !site.equals(text(field(mine, "site")))) {
        return Optional.empty();
      }
      ranks.add((int) r.value());
      TlaValue val = field(mine, "val");
      sent.put((int) r.value(), val == null ? "" : val.format());
      if (val instanceof TlaValue.Tuple t) {
        payloads.add(t);
        List<Long> numbers = new ArrayList<>();
        for (TlaValue x : t.elements()) {
          if (x instanceof TlaValue.Int n) {
            numbers.add(n.value());
          }
        }
        if (numbers.size() == t.elements().size()) {
          vectors.put((int) r.value(), numbers);
        }
      }
    }
    ranks.sort(null);
    String op = text(field(call, "op"));
    String kind = text(field(grp, "kind"));
    String ch = text(field(grp, "ch"));
    return Optional.of(new Collective(site, op == null ? "?" : op, kind == null ? "?" : kind,
        ch == null ? thread : ch, ranks, sent, result(op, payloads, ranks.size()),
        vectors.size() == ranks.size() ? vectors : Map.of(), List.of()));
  }

  /** Element-wise MIN or MAX of the payloads, as the spec's {@code Result(g)}; "?" if they do not line up. */
  private static String result(String op, List<TlaValue.Tuple> payloads, int members) {
    if (payloads.size() != members || payloads.isEmpty()) {
      return "?";
    }
    int size = payloads.get(0).elements().size();
    List<TlaValue> out = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      Long best = null;
      for (TlaValue.Tuple p : payloads) {
        if (p.elements().size() != size || !(p.elements().get(i) instanceof TlaValue.Int v)) {
          return "?";
        }
        best = best == null ? v.value() : "MIN".equals(op) ? Math.min(best, v.value()) : Math.max(best, v.value());
      }
      out.add(new TlaValue.Int(best));
    }
    return new TlaValue.Tuple(out).format();
  }

  private static boolean changed(TlaValue.Fn before, TlaValue after, Collective c) {
    if (!(after instanceof TlaValue.Fn afterFn)) {
      return true;
    }
    for (int r : c.members()) {
      TlaValue key = new TlaValue.Int(r);
      TlaValue b = field(before.mapping().get(key), c.channel());
      TlaValue a = field(afterFn.mapping().get(key), c.channel());
      if (b != null && !b.equals(a)) {
        return true;
      }
    }
    return false;
  }

  private static TlaValue field(TlaValue v, String name) {
    return v instanceof TlaValue.Rec rec ? rec.fields().get(name) : null;
  }

  private static String text(TlaValue v) {
    return v instanceof TlaValue.Str s ? s.value() : null;
  }
}
