package dev.hicachesync.modelcheck.validate;

import dev.hicachesync.trace.CollectiveRecord;
import dev.hicachesync.trace.Trace;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Merges a trace's per-rank lines into the spec's steps.
 *
 * <p>The spec completes a collective for every member in one step ({@code CollectiveCompletes(g)}); the
 * implementation logs one line per member, after its call returned. The k-th line of each member on a
 * group (kind, thread, members) belongs to the group's k-th collective; the merged event takes the place of
 * the first of those lines. That order is sound: a member logs its own earlier events before it calls, and
 * no member returns before every member has called. A collective whose members disagree on site, stage, op
 * or payload size, or that misses a member's line, becomes a harness event that no spec step matches.
 */
public final class SpecEvents {

  private SpecEvents() {}

  /** The spec steps of {@code trace}, numbered from 1. */
  public static List<SpecEvent> merge(Trace trace) {
    List<Builder> order = new ArrayList<>();
    Map<String, Builder> open = new HashMap<>();
    Map<String, Integer> calls = new HashMap<>();
    for (Trace.Line line : trace.events()) {
      if (!(line.record() instanceof CollectiveRecord c)) {
        order.add(new Builder(line.record().event().name(), line.number(), line.record()));
        continue;
      }
      String key = c.groupKey();
      int k = calls.merge(c.rank() + "@" + key, 1, Integer::sum);
      String instance = key + "#" + k;
      Builder b = open.get(instance);
      if (b == null) {
        b = new Builder("CollectiveCompletes", line.number(), c);
        open.put(instance, b);
        order.add(b);
      }
      b.add(c);
      if (b.members.size() == c.members().size()) {
        open.remove(instance);
      }
    }
    for (Builder b : open.values()) {
      CollectiveRecord c = (CollectiveRecord) b.first;
      List<Integer> missing = new ArrayList<>(c.members());
      missing.removeAll(b.members.keySet());
      b.harness("IncompleteCollective", "no line from rank" + (missing.size() > 1 ? "s " : " ") + missing
          + " for this collective (the trace ends first)");
    }
    List<SpecEvent> out = new ArrayList<>();
    for (Builder b : order) {
      out.add(new SpecEvent(out.size() + 1, b.kind, b.line, b.first, new LinkedHashMap<>(b.members), b.note));
    }
    return out;
  }

  /**
   * The first collective whose members' own lines disagree where the protocol needs them equal: different
   * results, or different snapshots at RECV (a lockstep point). This is where the recorded ranks diverged,
   * whatever the spec says; reports name it next to TLC's verdict.
   */
  public static Optional<String> firstDisagreement(List<SpecEvent> events) {
    for (SpecEvent e : events) {
      List<CollectiveRecord> ms = e.ranks().stream().map(r -> e.members().get(r)).toList();
      for (int i = 1; i < ms.size(); i++) {
        CollectiveRecord a = ms.get(0);
        CollectiveRecord b = ms.get(i);
        if (!a.result().equals(b.result())) {
          return Optional.of("event " + e.number() + " (line " + e.line() + "): " + a.site() + " result "
              + a.result() + " on rank " + a.rank() + ", " + b.result() + " on rank " + b.rank());
        }
        if (a.snapshot() != null && b.snapshot() != null && !a.snapshot().equals(b.snapshot())) {
          return Optional.of("event " + e.number() + " (line " + e.line() + "): at " + a.site() + " rank "
              + a.rank() + " " + show(a.snapshot()) + ", rank " + b.rank() + " " + show(b.snapshot()));
        }
      }
    }
    return Optional.empty();
  }

  private static String show(dev.hicachesync.trace.Snapshot s) {
    return "device free " + s.deviceFree() + ", host free " + s.hostFree() + ", write acks " + s.writeAcks()
        + ", load acks " + s.loadAcks() + ", revokes " + s.revokes() + ", releases " + s.releases()
        + ", waiting " + s.waiting() + ", running " + s.running();
  }

  private static final class Builder {
    String kind;
    final int line;
    final dev.hicachesync.trace.TraceRecord first;
    final Map<Integer, CollectiveRecord> members = new TreeMap<>();
    String note = "";

    Builder(String kind, int line, dev.hicachesync.trace.TraceRecord first) {
      this.kind = kind;
      this.line = line;
      this.first = first;
    }

    void add(CollectiveRecord c) {
      CollectiveRecord f = (CollectiveRecord) first;
      members.put(c.rank(), c);
      if (!kind.equals("MismatchedCollective") && (!c.site().equals(f.site()) || c.stage() != f.stage()
          || !c.op().equals(f.op()) || c.value().size() != f.value().size())) {
        harness("MismatchedCollective", "rank " + f.rank() + " called " + call(f) + ", rank " + c.rank()
            + " called " + call(c) + " (CollectiveMatching)");
      }
    }

    void harness(String k, String why) {
      kind = k;
      note = why;
    }

    private static String call(CollectiveRecord c) {
      return c.site() + " stage " + c.stage() + " " + c.op() + " with " + c.value().size() + " value"
          + (c.value().size() == 1 ? "" : "s");
    }
  }
}
