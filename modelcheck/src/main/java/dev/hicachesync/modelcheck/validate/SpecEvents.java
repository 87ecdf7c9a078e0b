package dev.hicachesync.modelcheck.validate;

import dev.hicachesync.trace.CollectiveRecord;
import dev.hicachesync.trace.TraceHeader;
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
    // A later pipeline stage's received decisions (group kind pipe) are steps of TraceHiCacheRun.tla only; the
    // model-shaped TraceHiCachePipeline.tla moves a later stage unlogged, forced by stage 0's messages.
    // Such a line is checked here instead, by the rules TraceHiCacheRun.tla applies to it (ForwardedLines), and
    // becomes a harness event that no spec step matches where it breaks one.
    boolean pipes = RunTraces.applies(trace.header());
    ForwardedLines forwarded = pipes ? null : ForwardedLines.of(trace);
    for (Trace.Line line : trace.events()) {
      if (!pipes && line.record() instanceof CollectiveRecord p && p.group().equals("pipe")) {
        Optional<String> broken = forwarded.mismatch(p);
        if (broken.isPresent()) {
          Builder b = new Builder("ForwardedDecisionMismatch", line.number(), p);
          b.members.put(p.rank(), p);
          b.harness("ForwardedDecisionMismatch", broken.get());
          order.add(b);
        }
        continue;
      }
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
      // unified's HiCache collectives are one reduction over the CP x TP grid in its spec too: never split
      if (b.kind.equals("CollectiveCompletes") && isFusedOverGrid(b.first)
          && !"unified".equals(trace.header().version())) {
        for (Map<Integer, CollectiveRecord> step : splitOverGrid(trace.header(), b.members)) {
          CollectiveRecord f = step.values().iterator().next();
          out.add(new SpecEvent(out.size() + 1, b.kind, b.line, f, step, ""));
        }
        continue;
      }
      out.add(new SpecEvent(out.size() + 1, b.kind, b.line, b.first, new LinkedHashMap<>(b.members), b.note));
    }
    return out;
  }

  /**
   * Whether {@code r} is one of merged's sync points (S123; with storage on also S4, S5 and the prefetch
   * thread's S7) as the simulator makes it on a CP x TP grid: one collective over the whole stage domain
   * (logged with group kind {@code domain}), where the spec reduces over attn_cp, then attn_tp.
   */
  static boolean isFusedOverGrid(dev.hicachesync.trace.TraceRecord r) {
    // RECV is a domain collective in the spec too; every HiCache sync point is attn_cp then attn_tp there.
    return r instanceof CollectiveRecord c && !c.site().equals("RECV") && c.group().equals("domain");
  }

  /**
   * The spec's two steps for one fused collective over the CP x TP grid (a difference of representation
   * only: MIN and MAX are associative, and what each member would have sent and received in the two steps
   * is computable from the members' local values): first every attn_cp group (stage 1: each member's value,
   * the MIN, or MAX for S4, over its group), then every attn_tp group (stage 2: the attn_cp results, the logged final result and pops).
   * Ranks whose line is missing are left to the caller's checks: the merged collective is complete here.
   */
  static List<Map<Integer, CollectiveRecord>> splitOverGrid(TraceHeader h,
      Map<Integer, CollectiveRecord> members) {
    Map<List<Integer>, List<Integer>> cpGroups = new java.util.TreeMap<>(SpecEvents::compareLists);
    Map<List<Integer>, List<Integer>> tpGroups = new java.util.TreeMap<>(SpecEvents::compareLists);
    for (int r : members.keySet()) {
      int tp = r % h.tp();
      int cp = (r / h.tp()) % h.cp();
      int rest = r / (h.tp() * h.cp());
      cpGroups.computeIfAbsent(List.of(rest, tp), k -> new ArrayList<>()).add(r);
      tpGroups.computeIfAbsent(List.of(rest, cp), k -> new ArrayList<>()).add(r);
    }
    Map<Integer, List<Long>> afterCp = new HashMap<>();
    List<Map<Integer, CollectiveRecord>> steps = new ArrayList<>();
    for (List<Integer> g : cpGroups.values()) {
      boolean max = members.get(g.get(0)).op().equals("MAX"); // S4; the others are MIN
      List<Long> min = reduce(g.stream().map(r -> members.get(r).value()).toList(), max);
      Map<Integer, CollectiveRecord> step = new TreeMap<>();
      for (int r : g) {
        CollectiveRecord c = members.get(r);
        step.put(r, new CollectiveRecord(r, c.step(), "attn_cp", c.channel(), g, c.site(), 1, c.op(),
            c.value(), min, null, null));
        afterCp.put(r, min);
      }
      steps.add(step);
    }
    for (List<Integer> g : tpGroups.values()) {
      Map<Integer, CollectiveRecord> step = new TreeMap<>();
      for (int r : g) {
        CollectiveRecord c = members.get(r);
        step.put(r, new CollectiveRecord(r, c.step(), "attn_tp", c.channel(), g, c.site(), 2, c.op(),
            afterCp.get(r), c.result(), c.popped(), c.snapshot()));
      }
      steps.add(step);
    }
    return steps;
  }

  private static List<Long> reduce(List<List<Long>> values, boolean max) {
    List<Long> out = new ArrayList<>(values.get(0));
    for (List<Long> v : values) {
      for (int i = 0; i < out.size() && i < v.size(); i++) {
        out.set(i, max ? Math.max(out.get(i), v.get(i)) : Math.min(out.get(i), v.get(i)));
      }
    }
    return out;
  }

  private static int compareLists(List<Integer> a, List<Integer> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = Integer.compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
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
    private String kind;
    private final int line;
    private final dev.hicachesync.trace.TraceRecord first;
    private final Map<Integer, CollectiveRecord> members = new TreeMap<>();
    private String note = "";

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
