package dev.hicachesync.trace;

/**
 * What a rank shows while it waits on RECV (a lockstep point); the trace spec compares each field with the
 * spec variable named in brackets ({@code TraceHiCacheSync.tla}), or, in a trace of a run's own loop ({@code
 * TraceHiCacheRun.tla}), with the same field of every other rank of the sync domain and with the queue counts it
 * tracked since the last RECV.
 *
 * @param deviceFree free device (L1) pages [devFree]
 * @param hostFree free host (L2) pages [hostFree]
 * @param writeAcks write-through acks queued [Len(wq)]
 * @param loadAcks load-back acks queued [Len(lq)]
 * @param revokes revoked prefetches waiting for S3 [Len(rvq)]
 * @param releases host releases waiting for S3 [Len(rlq)]
 * @param waiting index (from 1) of the request waiting for admission, 0 if none [waiting]; in a trace of a
 *     run's own loop the number of waiting requests
 * @param running index (from 1) of the request running this step, 0 if none [running]; in a trace of a run's
 *     own loop the number of running requests
 * @param backupAcks storage backup acks queued [Len(baq)], or -1 when not logged (optional, {@code nba})
 * @param digest the rank's digest, one running hash per invariant ({@code controller.ControllerDigest}: tree,
 *     acks, prefetch decisions, allocations) as four hexadecimal numbers joined by {@code :}, or null when not
 *     logged (optional, {@code dig})
 * @param abortedRunning running requests the rank's scheduler aborted so far (each finished early with what it
 *     had decoded, {@code cache_finished_req}, no sync point), or -1 when not logged (optional, {@code abr}; a
 *     trace of a run's own loop compares it across the sync domain)
 */
public record Snapshot(long deviceFree, long hostFree, long writeAcks, long loadAcks, long revokes,
    long releases, long waiting, long running, long backupAcks, String digest, long abortedRunning) {

  /** A snapshot without the count of running requests aborted. */
  public Snapshot(long deviceFree, long hostFree, long writeAcks, long loadAcks, long revokes, long releases,
      long waiting, long running, long backupAcks, String digest) {
    this(deviceFree, hostFree, writeAcks, loadAcks, revokes, releases, waiting, running, backupAcks, digest, -1);
  }

  /** A snapshot without the backup-ack count and the digest (a spec-shaped run's, and every older trace's). */
  public Snapshot(long deviceFree, long hostFree, long writeAcks, long loadAcks, long revokes, long releases,
      long waiting, long running) {
    this(deviceFree, hostFree, writeAcks, loadAcks, revokes, releases, waiting, running, -1, null);
  }

  /** Checks the optional fields' form. */
  public Snapshot {
    if (abortedRunning < -1) {
      throw new IllegalArgumentException("aborted running requests must be >= 0 (or -1: not logged), got "
          + abortedRunning);
    }
    if (backupAcks < -1) {
      throw new IllegalArgumentException("backup acks must be >= 0 (or -1: not logged), got " + backupAcks);
    }
    if (digest != null && !digest.matches("[0-9a-f]{1,16}(:[0-9a-f]{1,16}){3}")) {
      throw new IllegalArgumentException("a digest is four hexadecimal numbers joined by ':', got '" + digest + "'");
    }
  }

  /** The digest of four running hashes, as {@link #digest} writes it. */
  public static String digest(long tree, long acks, long prefetch, long alloc) {
    return Long.toHexString(tree) + ":" + Long.toHexString(acks) + ":" + Long.toHexString(prefetch) + ":"
        + Long.toHexString(alloc);
  }
}
