package dev.hicachesync.controller;

/**
 * Deliberate bugs of version {@code pipelined}'s asynchronous event check ({@link PipelinedEventChecks}), set
 * through the simulator's seam ({@code sim.Fault}) only; {@link #NONE} otherwise.
 *
 * @param countsBeforeConsuming bug P1 of {@code spec/HiCacheSync.tla}: the local counts for the next asynchronous
 *     MIN are read before the previous step's result is consumed, so entries that result pops are counted again
 * @param asyncOff knob {@code async_rank_off}: this rank never issues the asynchronous S123 (its asynchronous path
 *     is off here only), so its peers' all-reduce never completes and their next wait on the handle ends at the
 *     fabric's timeout
 */
public record PipelinedFaults(boolean countsBeforeConsuming, boolean asyncOff) {
  /** No fault: proposal #39903 as written. */
  public static final PipelinedFaults NONE = new PipelinedFaults(false, false);
}
