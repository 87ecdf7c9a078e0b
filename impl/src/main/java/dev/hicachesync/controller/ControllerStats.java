package dev.hicachesync.controller;

/**
 * Counters of one rank's controller: copies and pages moved per direction, prefetch outcomes, ack pops.
 *
 * <p>Scheduler thread writes; read after the run (or under the simulator's lockstep).
 */
public final class ControllerStats {
  public long deviceToHostCopies;
  public long deviceToHostPages;
  public long hostToDeviceCopies;
  public long hostToDevicePages;
  public long storageReadPages;
  public long storageWritePages;
  public long storageReadFailures;
  /** Page objects a read found corrupt (each also fails its batch: counted in storageReadFailures). */
  public long storageCorruptPages;
  public long prefetchesIssued;
  public long prefetchesRevoked;
  public long prefetchesTerminated;
  public long prefetchesCompleted;
  public long prefetchesAborted;
  public long prefetchInsertedPages;
  public long writeAcksPopped;
  public long loadAcksPopped;
  public long revokesPopped;
  public long backupAcksPopped;
  public long releasesPopped;
  public long deviceEvictedPages;
  public long hostEvictedPages;
}
