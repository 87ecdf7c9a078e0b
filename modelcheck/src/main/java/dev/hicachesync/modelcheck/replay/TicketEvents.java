package dev.hicachesync.modelcheck.replay;

import static dev.hicachesync.modelcheck.replay.TraceReads.field;
import static dev.hicachesync.modelcheck.replay.TraceReads.number;
import static dev.hicachesync.modelcheck.replay.TraceReads.posted;
import static dev.hicachesync.modelcheck.replay.TraceReads.rank;

import dev.hicachesync.modelcheck.replay.UnifiedPipelineSchedule.Place;
import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.ArrayList;
import java.util.List;

/**
 * What a {@code HiCacheUnifiedPipeline.tla} counterexample with stage 0's prefetch tickets (knob {@code tickets},
 * #36700) schedules beyond the S7 queries {@link UnifiedPipelineSchedule} reads: a later stage's ticket worker
 * getting its hit ({@code S7Complete} handing it the ticket, or its own query under knob {@code own_hit}: the
 * rank's prefetch leaves {@code "query"} without an S7 call of its own), and every rank's reads ({@code
 * PfRead(r, k)}, a read of fewer pages than the hit being a failed one) with their completion MIN, which the
 * implementation's prefetch pass makes where the spec's {@code PfRead} posts it.
 */
final class TicketEvents {
  private final List<List<Place>> readPlaces = new ArrayList<>();
  private final List<List<Boolean>> readFails = new ArrayList<>();

  TicketEvents(int ranks) {
    for (int r = 0; r < ranks; r++) {
      readPlaces.add(new ArrayList<>());
      readFails.add(new ArrayList<>());
    }
  }

  /**
   * Whether rank {@code r}'s prefetch got its hit without an S7 call of its own between {@code before} and {@code
   * now}: a ticket worker's ({@code S7Complete}) or its own hit ({@code PfQuery} under {@code own_hit}).
   */
  static boolean hitWithoutQuery(TraceState before, TraceState now, int r) {
    return posted(before, r, "pf") == null && posted(now, r, "pf") == null && st(before, r).equals("query")
        && (st(now, r).equals("hitres") || st(now, r).equals("hitq"));
  }

  /** Whether stage 0's rank {@code r0}'s S7 completed between {@code before} and {@code now} (its ticket submitted). */
  static boolean ticketed(TraceState before, TraceState now, int r0) {
    return posted(before, r0, "pf") != null && posted(now, r0, "pf") == null;
  }

  /** The hit rank {@code r}'s prefetch holds in {@code s}. */
  static int hit(TraceState s, int r) {
    return (int) number(field(rank(s, "pf", r), "hit"));
  }

  /** The later of two places: a ticket worker cannot take its ticket before stage 0's query submitted it. */
  static Place later(Place a, Place b) {
    if (a.step() != b.step()) {
      return a.step() > b.step() ? a : b;
    }
    return a.beforeEvents() ? a : b;
  }

  /** Records rank {@code r}'s read between {@code before} and {@code now} ({@code PfRead(r, k)}), if any, at {@code p}. */
  boolean readAt(TraceState before, TraceState now, int r, Place p) {
    if (!st(now, r).equals("sync") || st(before, r).equals("sync")) {
      return false;
    }
    long k = number(field(rank(now, "pf", r), "loc"));
    readPlaces.get(r).add(p);
    readFails.get(r).add(k < hit(now, r));
    return true;
  }

  /** Whether rank {@code r}'s prefetch pass runs at {@code p} for a read's completion MIN. */
  boolean passAt(int r, Place p) {
    return readPlaces.get(r).contains(p);
  }

  /** Whether rank {@code r}'s {@code n}-th read fails (reads fewer pages than its hit); false after the trace. */
  boolean readFails(int r, int n) {
    List<Boolean> f = readFails.get(r);
    return n < f.size() && f.get(n);
  }

  /** How many reads of rank {@code r} the trace has (each lands at once; a later one after the trace). */
  int reads(int r) {
    return readPlaces.get(r).size();
  }

  /** One line per rank with reads: where each read's completion MIN runs and whether the read fails. */
  List<String> describe() {
    List<String> out = new ArrayList<>();
    for (int r = 0; r < readPlaces.size(); r++) {
      List<String> each = new ArrayList<>();
      for (int n = 0; n < readPlaces.get(r).size(); n++) {
        each.add((readFails.get(r).get(n) ? "fails, " : "reads its hit, ") + "completion MIN "
            + readPlaces.get(r).get(n));
      }
      if (!each.isEmpty()) {
        out.add("schedule rank " + r + " reads: " + String.join("; ", each) + " (each read lands at once)");
      }
    }
    return out;
  }

  private static String st(TraceState s, int r) {
    return field(rank(s, "pf", r), "st") instanceof TlaValue.Str x ? x.value() : "";
  }
}
