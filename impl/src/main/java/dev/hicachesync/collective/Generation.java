package dev.hicachesync.collective;

/**
 * The k-th rendezvous of one group: the calls that have arrived and, once complete, the shared result or
 * failure. All fields are guarded by the owning {@link Rendezvous}'s lock.
 */
final class Generation {
  final long index;
  final Call[] arrivals;
  int arrived;
  boolean complete;
  /** The reduced or broadcast payload (empty for a barrier); valid once {@link #complete}. */
  long[] result;
  /** Set instead of {@link #result} when the rendezvous failed. */
  CollectiveException failure;

  Generation(long index, int members) {
    this.index = index;
    this.arrivals = new Call[members];
  }
}
