package dev.hicachesync.trace;

import java.util.List;

/**
 * Where a run's trace goes. Recording is off by default: {@link #NONE} returns at once from every call and
 * allocates nothing, so call sites may emit unconditionally; callers that must build arrays or lists for an
 * event first test {@link #enabled()}.
 *
 * <p>Implementations are safe to call from every rank's threads; lines of one rank appear in the order
 * that rank emitted them.
 *
 * <p>What a recording implementation must do for its trace to be checkable (the order argument is in {@code
 * SpecEvents}): each member logs a collective after the call returned and before its next call, on the
 * thread that made it, into one log with a total order (this recorder's lock); RECV is logged on every rank
 * even when the sync domain is one rank (the spec always posts it), while a sync point's singleton groups
 * are skipped and not logged (as the spec skips them); values are in the spec's units (pages, request
 * indexes from 1, keys from 1), so the recorder of an engine whose units differ maps them first.
 */
public interface TraceRecorder {

  /** Records nothing. */
  TraceRecorder NONE = new TraceRecorder() {
    @Override
    public boolean enabled() {
      return false;
    }

    @Override
    public void header(TraceHeader header) {}

    @Override
    public void record(TraceRecord record) {}

    @Override
    public void collective(int rank, long step, String group, String channel, List<Integer> members,
        String site, int stage, String op, long[] value, long[] result, long[] popped, Snapshot snapshot) {}

    @Override
    public void failed(int rank, long step, String reason) {}
  };

  /** Whether anything is recorded. */
  boolean enabled();

  /** Writes the header; must be called once, before any event. */
  void header(TraceHeader header);

  /** Writes one event. */
  void record(TraceRecord record);

  /**
   * Records one member's side of a completed collective; {@code popped} and {@code snapshot} may be null
   * (not observed). See {@link CollectiveRecord} for the fields.
   */
  default void collective(int rank, long step, String group, String channel, List<Integer> members,
      String site, int stage, String op, long[] value, long[] result, long[] popped, Snapshot snapshot) {
    record(new CollectiveRecord(rank, step, group, channel, members, site, stage, op, boxed(value),
        boxed(result), popped == null ? null : boxed(popped), snapshot));
  }

  /** Records that {@code rank} stopped on a failure it detected. */
  default void failed(int rank, long step, String reason) {
    record(new RankFailedRecord(rank, step, reason));
  }

  private static List<Long> boxed(long[] v) {
    return java.util.Arrays.stream(v).boxed().toList();
  }
}
