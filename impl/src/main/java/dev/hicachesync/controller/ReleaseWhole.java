package dev.hicachesync.controller;

import java.util.Arrays;

/**
 * How an aborted prefetch's host slots go to the release queue ({@code release_aborted_request}): in one entry
 * for the whole hit, queued once the rank's reader has stopped, so that the number of entries is the same on
 * every rank whatever each rank's read got to (SGLang queues them one entry per page since #9797, with the same
 * effect). Under the knob {@code release_whole} ({@link ControllerFaults#releaseWhole}, the code before #9797)
 * the scheduler first queues the pages this rank has read as an entry of its own, ready at once
 * ({@code host_indices[:completed_tokens]}), and the I/O thread the rest when it stops: one entry or two,
 * depending on rank-local progress, and S3's MIN over entry counts then frees different slots on the ranks.
 * Scheduler thread.
 */
final class ReleaseWhole {

  private ReleaseWhole() {}

  /**
   * Queues the scheduler's part of {@code op}'s slots under {@code release_whole} and returns the first page of
   * the I/O thread's part (the tail); without the knob queues nothing and returns 0 (the whole hit is the tail).
   */
  static int scheduledPart(RankState s, PrefetchOperation op) {
    int read = s.faults().releaseWhole() ? op.completedPages() : 0;
    if (read > 0) {
      s.queues().addRelease(Arrays.copyOfRange(op.hostPages(), 0, read)).markReady();
    }
    return read;
  }
}
