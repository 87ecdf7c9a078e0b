package dev.hicachesync.trace;

/**
 * What a rank shows while it waits on RECV (a lockstep point); the trace spec compares each field with the
 * spec variable named in brackets.
 *
 * @param deviceFree free device (L1) pages [devFree]
 * @param hostFree free host (L2) pages [hostFree]
 * @param writeAcks write-through acks queued [Len(wq)]
 * @param loadAcks load-back acks queued [Len(lq)]
 * @param revokes revoked prefetches waiting for S3 [Len(rvq)]
 * @param releases host releases waiting for S3 [Len(rlq)]
 * @param waiting index (from 1) of the request waiting for admission, 0 if none [waiting]
 * @param running index (from 1) of the request running this step, 0 if none [running]
 */
public record Snapshot(long deviceFree, long hostFree, long writeAcks, long loadAcks, long revokes,
    long releases, long waiting, long running) {}
