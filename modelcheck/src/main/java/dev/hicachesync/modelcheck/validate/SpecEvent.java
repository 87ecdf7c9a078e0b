package dev.hicachesync.modelcheck.validate;

import dev.hicachesync.trace.CollectiveRecord;
import dev.hicachesync.trace.TraceRecord;
import java.util.List;
import java.util.Map;

/**
 * One step of the trace as the spec sees it: for a collective, the lines of all its members merged.
 *
 * @param number 1-based index in the merged trace (the trace spec's {@code l})
 * @param kind the TLA+ event name: a {@link dev.hicachesync.trace.TraceEvent} name, or {@code
 *     IncompleteCollective} / {@code MismatchedCollective} for collectives no spec step can be, {@code
 *     ForwardedDecisionMismatch} for a later pipeline stage's received decision that breaks R8 or R5 ({@link
 *     ForwardedLines})
 * @param line line of the file where the step starts (its first member's line)
 * @param first the first line's record
 * @param members for a collective, each member's record by rank (ascending); else empty
 * @param note for the harness kinds, why the line or collective cannot be a spec step; else ""
 */
public record SpecEvent(int number, String kind, int line, TraceRecord first,
    Map<Integer, CollectiveRecord> members, String note) {

  public SpecEvent {
    members = Map.copyOf(members);
  }

  /** One line describing the event for reports. */
  public String describe() {
    if (first instanceof CollectiveRecord c) {
      return "CollectiveCompletes " + c.site() + " stage " + c.stage() + " on " + c.group() + "/" + c.channel()
          + " " + c.members() + " (" + c.op() + ")" + values()
          + (note.isEmpty() ? "" : ": " + note);
    }
    return kind + (note.isEmpty() ? "" : ": " + note);
  }

  private String values() {
    StringBuilder sb = new StringBuilder();
    for (int r : members.keySet().stream().sorted().toList()) {
      CollectiveRecord c = members.get(r);
      sb.append(sb.length() == 0 ? ", " : "; ").append("rank ").append(r).append(" val ").append(c.value())
          .append(" res ").append(c.result());
      if (c.popped() != null) {
        sb.append(" pop ").append(c.popped());
      }
    }
    return sb.toString();
  }

  /** The members in ascending order (empty for a non-collective). */
  public List<Integer> ranks() {
    return members.keySet().stream().sorted().toList();
  }
}
