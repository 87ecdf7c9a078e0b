package dev.hicachesync.controller;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of one rank's controller: copies and pages moved per direction, prefetch outcomes, ack pops.
 *
 * <p>Threads: the plain {@code long} counters are confined to the scheduler thread (written there, read
 * there or after the run, or under the simulator's lockstep, whose hand-offs publish them). The counters
 * another of the rank's threads writes ({@link ControllerThreads}) are {@link AtomicLong}s: {@link
 * #prefetchesRevoked} (the prefetch thread, at S7), {@link #storageReadPages}, {@link #storageReadFailures},
 * {@link #storageCorruptPages} (the prefetch I/O thread) and {@link #storageWritePages} (the backup thread);
 * free-running, a plain {@code +=} there would lose updates and publish nothing to the reader.
 */
public final class ControllerStats {
  public long deviceToHostCopies;
  public long deviceToHostPages;
  public long hostToDeviceCopies;
  public long hostToDevicePages;
  public final AtomicLong storageReadPages = new AtomicLong();
  public final AtomicLong storageWritePages = new AtomicLong();
  public final AtomicLong storageReadFailures = new AtomicLong();
  /** Page objects a read found corrupt (each also fails its batch: counted in storageReadFailures). */
  public final AtomicLong storageCorruptPages = new AtomicLong();
  /** Of those, store forgeries ({@code ForgedPageException}): checksum and key right, payload not the page's. */
  public final AtomicLong storageForgedPages = new AtomicLong();
  public long prefetchesIssued;
  public final AtomicLong prefetchesRevoked = new AtomicLong();
  public long prefetchesTerminated;
  public long prefetchesCompleted;
  public long prefetchesAborted;
  /** {@code unified}, buffer-only host memory (#34798): storage hits parked at the hit drain (counted once). */
  public long prefetchesParked;
  /** Parked hits that a later hit drain gave their host slots. */
  public long parkedHitsGranted;
  public long prefetchInsertedPages;
  public long writeAcksPopped;
  public long loadAcksPopped;
  public long revokesPopped;
  public long backupAcksPopped;
  public long releasesPopped;
  public long deviceEvictedPages;
  public long hostEvictedPages;
}
