package dev.hicachesync.trace;

/** One event line of a trace: an event of one rank at one scheduler step. */
public sealed interface TraceRecord permits CollectiveRecord, RankFailedRecord {

  /** The event. */
  TraceEvent event();

  /** The rank that logged it (global rank). */
  int rank();

  /** The rank's scheduler step when it logged it. */
  long step();
}
