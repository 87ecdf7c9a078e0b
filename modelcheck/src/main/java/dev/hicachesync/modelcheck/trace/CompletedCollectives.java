package dev.hicachesync.modelcheck.trace;

import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Names the sync points whose collective could complete from a trace state: those whose every member
 * is posted on the same group at the same site in the spec's {@code coll} variable.
 *
 * <p>Why: an action name alone does not always say which sync point a step decided (HiCacheSync.tla
 * names each step after its sync point's function, {@code SchedWritingCheck} for S1, but the other modules
 * complete collectives in generic actions, and a step has two stages on a CP x TP grid). The state before
 * the step does: a group whose members are all posted is the one that completes. Reads the spec's layout
 * {@code coll[rank][thread] = [site, grp |-> [ch, m, kind], ...]}; any other shape yields nothing.
 */
final class CompletedCollectives {
  private CompletedCollectives() {}

  /** The call sites (e.g. {@code RECV}, {@code S1}) ready to complete in {@code before}, sorted. */
  static List<String> readyIn(TraceState before) {
    TlaValue coll = before.variables().get("coll");
    if (!(coll instanceof TlaValue.Fn perRank)) {
      return List.of();
    }
    TreeSet<String> sites = new TreeSet<>();
    for (TlaValue threads : perRank.mapping().values()) {
      if (!(threads instanceof TlaValue.Rec byThread)) {
        continue;
      }
      for (TlaValue call : byThread.fields().values()) {
        String site = site(call);
        TlaValue grp = field(call, "grp");
        if (site != null && grp != null && allPosted(perRank, grp, site)) {
          sites.add(site);
        }
      }
    }
    return new ArrayList<>(sites);
  }

  private static boolean allPosted(TlaValue.Fn perRank, TlaValue grp, String site) {
    TlaValue members = field(grp, "m");
    TlaValue ch = field(grp, "ch");
    if (!(members instanceof TlaValue.SetValue set) || !(ch instanceof TlaValue.Str thread)) {
      return false;
    }
    for (TlaValue member : set.elements()) {
      TlaValue threads = perRank.mapping().get(member);
      TlaValue call = threads == null ? null : field(threads, thread.value());
      if (call == null || !grp.equals(field(call, "grp")) || !site.equals(site(call))) {
        return false;
      }
    }
    return true;
  }

  private static String site(TlaValue call) {
    TlaValue s = field(call, "site");
    return s instanceof TlaValue.Str str && !str.value().equals("none") ? str.value() : null;
  }

  private static TlaValue field(TlaValue v, String name) {
    return v instanceof TlaValue.Rec rec ? rec.fields().get(name) : null;
  }
}
