package dev.hicachesync.controller;

/**
 * The sequential specification of the prefetch progress hand-off, written from the protocol (PROTOCOL.md,
 * S5/S6 and INV-7) and not from {@link PrefetchOperation}: a hit of 3 pages, one page per batch, the
 * first batch in flight. A landed batch counts one page; the reader goes on while it is not stopped and
 * pages remain. Stopping at page 0 (S6) queues every hit slot for release; that entry becomes ready once
 * no read is in flight, and S3 frees it then (one entry, freed once).
 */
public class PrefetchProgressSpec {
  private static final int HIT = 3;
  private int completed;
  private boolean reading = true;
  private boolean stopped;
  private boolean tailQueued;
  private boolean tailFreed;

  public String batchLanded() {
    if (!reading) {
      return "idle";
    }
    completed++;
    reading = !stopped && completed < HIT;
    return reading ? "next" : "stopped";
  }

  public boolean abort() {
    if (stopped) {
      return false;
    }
    stopped = true;
    tailQueued = true; // the slots [0, HIT)
    return true;
  }

  public String popReleased() {
    if (tailQueued && !reading && !tailFreed) {
      tailFreed = true;
      return "freed 1";
    }
    return "freed 0";
  }
}
