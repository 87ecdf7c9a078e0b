package dev.hicachesync.trace;

/**
 * What a rank shows while it waits on RECV (a lockstep point): free pool pages and ack queue lengths; the
 * trace spec compares them with {@code devFree}, {@code hostFree}, {@code Len(wq)}, {@code Len(lq)}.
 *
 * @param deviceFree free device (L1) pages
 * @param hostFree free host (L2) pages
 * @param writeAcks write-through acks queued
 * @param loadAcks load-back acks queued
 */
public record Snapshot(long deviceFree, long hostFree, long writeAcks, long loadAcks) {}
