package dev.hicachesync.trace;

/**
 * The events of a trace; each name is the action of {@code spec/HiCacheSync.tla} (or the harness event)
 * that the trace spec matches it with.
 */
public enum TraceEvent {
  /**
   * One member's side of a completed collective ({@code CollectiveCompletes(g)}): the group, the call site
   * and stage, the op, the member's local value and the result it received; at a sync point's last stage
   * the acks it then popped, at RECV optionally its pool and queue sizes.
   */
  CollectiveCompletes,
  /**
   * A rank stopped on a failure it detected (a collective mismatch or timeout, an invariant): no action of
   * the spec matches it, so a trace that contains one is never accepted past it.
   */
  RankFailed;

  /** Returns the event named {@code name}, or null if there is none. */
  public static TraceEvent byName(String name) {
    for (TraceEvent e : values()) {
      if (e.name().equals(name)) {
        return e;
      }
    }
    return null;
  }
}
