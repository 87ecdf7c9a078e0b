package dev.hicachesync.trace.ndjson;

import dev.hicachesync.trace.CollectiveRecord;
import dev.hicachesync.trace.Snapshot;
import dev.hicachesync.trace.Trace;
import dev.hicachesync.trace.TraceFormatException;
import dev.hicachesync.trace.TraceHeader;
import dev.hicachesync.trace.TraceRecord;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The checks of a trace's fields that TLC does not make, so that every field the format carries is
 * checked by someone (an edited {@code step} and a changed {@code Policy} were accepted).
 *
 * <ul>
 *   <li>At least one event: a header alone is no run.
 *   <li>{@code step}: the spec has no step counter, so the reader checks it. A rank's scheduler logs
 *       one {@code RECV} per step, its k-th (from 0) at step k, and its other scheduler collectives at
 *       the step of the {@code RECV} before them; any event's step never decreases along a rank.
 *   <li>{@code Policy} with {@code StorageOn}: under {@code best_effort} the scheduler never enters
 *       S4 ({@code check_prefetch_progress}), so an S4 event contradicts the header; without storage no
 *       prefetch exists, so no S4, S5, S6 or S7 event may appear.
 *   <li>{@code DP}, {@code CP}, {@code TP}, {@code PP}: every collective's members are the group the header's
 *       topology gives its rank (a sync domain is CP x TP x PP ranks, an attention CP group CP, a TP group TP).
 *   <li>{@code DeviceCap}, {@code HostCap}: a pool never has more pages free than it has, and a rank's first
 *       snapshot (its first RECV, before any request) has every page free.
 * </ul>
 * Each refusal names the header field the events contradict. An edit the events cannot contradict (a policy
 * or threshold the run never exercised) is left to TLC, which accepts the trace exactly when it is a behaviour
 * of the spec with the header as written (docs/explanation/trace-validation.md).
 */
final class TraceConsistency {
  private TraceConsistency() {}

  /** A collective's members must be the group the header's topology gives its rank. */
  private static void checkMembers(String name, int line, TraceHeader h, dev.hicachesync.topology.Topology t,
      CollectiveRecord c) throws TraceFormatException {
    List<Integer> expected;
    String fields;
    switch (c.group()) {
      case "domain":
        // A site's whole group: the sync domain (RECV spans the stages), or under PP the stage's CP x TP (S123).
        expected = t.syncDomain(c.rank());
        fields = "CP " + h.cp() + " x TP " + h.tp() + " x PP " + h.pp();
        if (h.pp() > 1 && sorted(c.members()).equals(t.cpTpGroup(c.rank()))) {
          return;
        }
        break;
      case "attn_cp":
        expected = t.attnCpGroup(c.rank());
        fields = "CP " + h.cp();
        break;
      case "attn_tp":
        expected = t.attnTpGroup(c.rank());
        fields = "TP " + h.tp();
        break;
      default:
        return;
    }
    List<Integer> got = sorted(c.members());
    if (!got.equals(expected)) {
      throw new TraceFormatException(name, line, "the header's " + fields + " (DP " + h.dp() + ") gives rank "
          + c.rank() + " the " + c.group() + " group " + expected + " (" + expected.size() + " ranks), but its "
          + c.channel() + " " + c.site() + " here has members " + got + ": the header's topology contradicts the run");
    }
  }

  private static List<Integer> sorted(List<Integer> members) {
    List<Integer> out = new java.util.ArrayList<>(members);
    java.util.Collections.sort(out);
    return out;
  }

  /** No pool has more pages free than the header gives it; a rank's first RECV (before any request) has all. */
  private static void checkCapacities(String name, int line, TraceHeader h, CollectiveRecord c, boolean first)
      throws TraceFormatException {
    Snapshot s = c.snapshot();
    boolean start = first && c.site().equals("RECV") && c.step() == 0;
    if (s.hostFree() > h.hostCap() || (start && s.hostFree() != h.hostCap())) {
      throw new TraceFormatException(name, line, "the header's HostCap " + h.hostCap() + " contradicts rank "
          + c.rank() + "'s snapshot: " + s.hostFree() + " host pages free" + (start
              ? " before its first request (a pool starts with all HostCap pages free)" : " (more than HostCap)"));
    }
    if (s.deviceFree() > h.deviceCap() || (start && s.deviceFree() != h.deviceCap())) {
      throw new TraceFormatException(name, line, "the header's DeviceCap " + h.deviceCap() + " contradicts rank "
          + c.rank() + "'s snapshot: " + s.deviceFree() + " device pages free" + (start
              ? " before its first request (a pool starts with all DeviceCap pages free)" : " (more than DeviceCap)"));
    }
  }

  /** Throws a {@link TraceFormatException} naming the first line that contradicts the rules above. */
  static void check(String name, Trace trace, int headerLines) throws TraceFormatException {
    if (trace.events().isEmpty()) {
      throw new TraceFormatException(name, headerLines + 1, "no events after the header: a trace of a run "
          + "holds at least one");
    }
    TraceHeader h = trace.header();
    dev.hicachesync.topology.Topology topology =
        dev.hicachesync.topology.Topology.of(h.dp(), h.cp(), h.tp(), h.pp());
    java.util.Set<Integer> snapped = new java.util.HashSet<>();
    Map<Integer, Long> recvs = new HashMap<>();
    Map<Integer, Long> last = new HashMap<>();
    for (Trace.Line line : trace.events()) {
      TraceRecord e = line.record();
      long step = e.step();
      if (step < 0) {
        throw new TraceFormatException(name, line.number(), "field 'step' must be >= 0, got " + step);
      }
      Long before = last.put(e.rank(), step);
      if (before != null && step < before) {
        throw new TraceFormatException(name, line.number(), "field 'step' of rank " + e.rank() + " goes back from "
            + before + " to " + step);
      }
      if (!(e instanceof CollectiveRecord c)) {
        continue;
      }
      checkMembers(name, line.number(), h, topology, c);
      if (c.snapshot() != null) {
        checkCapacities(name, line.number(), h, c, snapped.add(c.rank()));
      }
      if (c.channel().equals("sched")) {
        long seen = recvs.getOrDefault(c.rank(), 0L);
        long expected = c.site().equals("RECV") ? seen : seen - 1;
        if (step != expected) {
          throw new TraceFormatException(name, line.number(), "field 'step' = " + step + " but rank " + c.rank()
              + " is at step " + expected + " (its " + (seen + (c.site().equals("RECV") ? 1 : 0))
              + ". RECV starts step " + (c.site().equals("RECV") ? seen : seen - 1) + ")");
        }
        if (c.site().equals("RECV")) {
          recvs.put(c.rank(), seen + 1);
        }
      }
      boolean prefetchSite = c.site().equals("S4") || c.site().equals("S5") || c.site().equals("S6")
          || c.site().equals("S7");
      if (!h.storage() && prefetchSite) {
        throw new TraceFormatException(name, line.number(), "site " + c.site() + " is a prefetch collective, but "
            + "the header says StorageOn false (no prefetch exists)");
      }
      if (h.policy().equals("best_effort") && c.site().equals("S4")) {
        throw new TraceFormatException(name, line.number(), "site S4 (check_prefetch_progress) under the "
            + "header's Policy best_effort, which never enters it: the header does not match the run");
      }
    }
  }
}
