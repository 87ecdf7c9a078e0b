package dev.hicachesync.sim;

/** Request-level counters of one rank's engine; equal on every rank of a sync domain. Rank thread only. */
final class EngineStats {
  long arrived;
  long admitted;
  long finished;
  long aborted;
  /** Of {@link #aborted}, the requests aborted while they ran. */
  long abortedRunning;
  long promptTokens;
  long deviceHitTokens;
  long hostHitTokens;
  long storageHitTokens;
  long computedTokens;
  long recvCollectives;
  long stepsRun;
}
