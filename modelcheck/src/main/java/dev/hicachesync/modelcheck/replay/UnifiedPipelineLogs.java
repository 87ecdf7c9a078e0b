package dev.hicachesync.modelcheck.replay;

import static dev.hicachesync.modelcheck.replay.TraceReads.elements;
import static dev.hicachesync.modelcheck.replay.TraceReads.field;
import static dev.hicachesync.modelcheck.replay.TraceReads.rank;

import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which of {@code HiCacheUnifiedPipeline.tla}'s step-log invariants (each a {@code StepAgree} over one part of
 * the per-rank log) the last state of a counterexample breaks. TLC names only the first of its cfg's invariants
 * that fails; a state may break several (a stage that decided another hit differs in its tree and its prefetch
 * decisions at the same step), and the implementation, which compares finer digests at every lockstep point, may
 * name another of them first. Both sides break the same invariant at the same step when it is in both lists.
 */
final class UnifiedPipelineLogs {
  /** Each step-log invariant and the fields of a log record it compares (the spec's definitions). */
  private static final Map<String, List<String>> COMPARED = new LinkedHashMap<>();

  static {
    COMPARED.put("TreeAgreement", List.of("tree", "req", "w"));
    COMPARED.put("AckAgreement", List.of("pop"));
    COMPARED.put("PrefetchAgreement", List.of("pfd"));
    COMPARED.put("AllocAgreement", List.of("hf"));
  }

  private UnifiedPipelineLogs() {}

  /** The step-log invariants the last state of {@code trace} ({@code ranks} ranks) breaks, in the spec's order. */
  static List<String> broken(ErrorTrace trace, int ranks) {
    List<TraceState> states = trace.states();
    List<String> out = new ArrayList<>();
    if (states.isEmpty()) {
      return out;
    }
    TraceState last = states.get(states.size() - 1);
    List<List<TlaValue>> logs = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      logs.add(elements(rank(last, "log", r)));
    }
    for (Map.Entry<String, List<String>> inv : COMPARED.entrySet()) {
      if (disagree(logs, inv.getValue())) {
        out.add(inv.getKey());
      }
    }
    return out;
  }

  private static boolean disagree(List<List<TlaValue>> logs, List<String> fields) {
    for (List<TlaValue> a : logs) {
      for (List<TlaValue> b : logs) {
        for (int k = 0; k < Math.min(a.size(), b.size()); k++) {
          for (String f : fields) {
            if (!java.util.Objects.equals(field(a.get(k), f), field(b.get(k), f))) {
              return true;
            }
          }
        }
      }
    }
    return false;
  }
}
