package dev.hicachesync.trace;

/**
 * Rank {@code rank} stopped at {@code step} on a failure it detected.
 *
 * @param rank the rank
 * @param step its scheduler step
 * @param reason one line: what failed (the invariant or the collective error)
 */
public record RankFailedRecord(int rank, long step, String reason) implements TraceRecord {

  @Override
  public TraceEvent event() {
    return TraceEvent.RankFailed;
  }
}
