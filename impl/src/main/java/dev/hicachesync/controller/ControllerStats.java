package dev.hicachesync.controller;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of one rank's controller: copies and pages moved per direction, prefetch outcomes, ack pops.
 *
 * <p>Why methods rather than fields: the controller's step classes count events (package-private methods
 * named by the event), everything else only reads (the public getters), so no reader outside this package
 * can change a count, and each counter's thread rule lives in one place.
 *
 * <p>Threads: the plain {@code long} counters are confined to the scheduler thread (written there, read
 * there or after the run, or under the simulator's lockstep, whose hand-offs publish them). The counters
 * another of the rank's threads writes ({@link ControllerThreads}) are {@link AtomicLong}s: {@link
 * #prefetchesRevoked} (the prefetch thread, at S7), {@link #storageReadPages}, {@link #storageReadFailures},
 * {@link #storageCorruptPages} (the prefetch I/O thread) and {@link #storageWritePages} (the backup thread);
 * free-running, a plain {@code +=} there would lose updates and publish nothing to the reader.
 */
public final class ControllerStats {
  private long deviceToHostCopies;
  private long deviceToHostPages;
  private long hostToDeviceCopies;
  private long hostToDevicePages;
  private final AtomicLong storageReadPages = new AtomicLong();
  private final AtomicLong storageWritePages = new AtomicLong();
  private final AtomicLong storageReadFailures = new AtomicLong();
  /** Page objects a read found corrupt (each also fails its batch: counted in storageReadFailures). */
  private final AtomicLong storageCorruptPages = new AtomicLong();
  /** Of those, store forgeries ({@code ForgedPageException}): checksum and key right, payload not the page's. */
  private final AtomicLong storageForgedPages = new AtomicLong();
  private long prefetchesIssued;
  private final AtomicLong prefetchesRevoked = new AtomicLong();
  private long prefetchesTerminated;
  private long prefetchesCompleted;
  private long prefetchesAborted;
  /** {@code unified}, buffer-only host memory (#34798): storage hits parked at the hit drain (counted once). */
  private long prefetchesParked;
  /** Parked hits that a later hit drain gave their host slots. */
  private long parkedHitsGranted;
  private long prefetchInsertedPages;
  private long writeAcksPopped;
  private long loadAcksPopped;
  private long revokesPopped;
  private long backupAcksPopped;
  private long releasesPopped;
  private long deviceEvictedPages;
  private long hostEvictedPages;

  // ---------------------------------------------------------------- counting (the controller's classes)

  /** A device-to-host copy (write-through or write-back) of {@code pages} pages started. Scheduler thread. */
  void deviceToHostCopy(int pages) {
    deviceToHostCopies++;
    deviceToHostPages += pages;
  }

  /** A host-to-device copy (load-back) of {@code pages} pages started. Scheduler thread. */
  void hostToDeviceCopy(int pages) {
    hostToDeviceCopies++;
    hostToDevicePages += pages;
  }

  /** A storage read batch brought {@code pages} pages. Any of the rank's threads. */
  void storageRead(long pages) {
    storageReadPages.addAndGet(pages);
  }

  /** A storage read batch failed. Any of the rank's threads. */
  void storageReadFailed() {
    storageReadFailures.incrementAndGet();
  }

  /** A read found a page object corrupt; {@code forged}: a store forgery. Any of the rank's threads. */
  void corruptPageRead(boolean forged) {
    storageCorruptPages.incrementAndGet();
    if (forged) {
      storageForgedPages.incrementAndGet();
    }
  }

  /** A backup wrote {@code pages} pages to storage. Any of the rank's threads. */
  void storageWritten(long pages) {
    storageWritePages.addAndGet(pages);
  }

  /** Scheduler thread. */
  void prefetchIssued() {
    prefetchesIssued++;
  }

  /** Any of the rank's threads (the prefetch thread at S7). */
  void prefetchRevoked() {
    prefetchesRevoked.incrementAndGet();
  }

  /** Scheduler thread. */
  void prefetchTerminated() {
    prefetchesTerminated++;
  }

  /** A terminated prefetch inserted {@code pages} pages new to the tree. Scheduler thread. */
  void prefetchInserted(long pages) {
    prefetchInsertedPages += pages;
  }

  /** A terminated prefetch got every page it hit. Scheduler thread. */
  void prefetchCompleted() {
    prefetchesCompleted++;
  }

  /** Scheduler thread. */
  void prefetchAborted() {
    prefetchesAborted++;
  }

  /** Scheduler thread. */
  void prefetchParked() {
    prefetchesParked++;
  }

  /** Scheduler thread. */
  void parkedHitGranted() {
    parkedHitsGranted++;
  }

  /** Scheduler thread. */
  void writeAckPopped() {
    writeAcksPopped++;
  }

  /** Scheduler thread. */
  void loadAckPopped() {
    loadAcksPopped++;
  }

  /** The storage control queues popped these counts at S3. Scheduler thread. */
  void storageAcksPopped(long revokes, long backups, long releases) {
    revokesPopped += revokes;
    backupAcksPopped += backups;
    releasesPopped += releases;
  }

  /** Scheduler thread. */
  void deviceEvicted(long pages) {
    deviceEvictedPages += pages;
  }

  /** Scheduler thread. */
  void hostEvicted(long pages) {
    hostEvictedPages += pages;
  }

  // ---------------------------------------------------------------- reading

  public long deviceToHostCopies() {
    return deviceToHostCopies;
  }

  public long deviceToHostPages() {
    return deviceToHostPages;
  }

  public long hostToDeviceCopies() {
    return hostToDeviceCopies;
  }

  public long hostToDevicePages() {
    return hostToDevicePages;
  }

  public long storageReadPages() {
    return storageReadPages.get();
  }

  public long storageWritePages() {
    return storageWritePages.get();
  }

  public long storageReadFailures() {
    return storageReadFailures.get();
  }

  public long storageCorruptPages() {
    return storageCorruptPages.get();
  }

  public long storageForgedPages() {
    return storageForgedPages.get();
  }

  public long prefetchesIssued() {
    return prefetchesIssued;
  }

  public long prefetchesRevoked() {
    return prefetchesRevoked.get();
  }

  public long prefetchesTerminated() {
    return prefetchesTerminated;
  }

  public long prefetchesCompleted() {
    return prefetchesCompleted;
  }

  public long prefetchesAborted() {
    return prefetchesAborted;
  }

  public long prefetchesParked() {
    return prefetchesParked;
  }

  public long parkedHitsGranted() {
    return parkedHitsGranted;
  }

  public long prefetchInsertedPages() {
    return prefetchInsertedPages;
  }

  /** Returns the acks popped so far: [write, load, revoke, backup, release]. */
  long[] poppedCounts() {
    return new long[] {writeAcksPopped, loadAcksPopped, revokesPopped, backupAcksPopped, releasesPopped};
  }

  public long deviceEvictedPages() {
    return deviceEvictedPages;
  }

  public long hostEvictedPages() {
    return hostEvictedPages;
  }
}
