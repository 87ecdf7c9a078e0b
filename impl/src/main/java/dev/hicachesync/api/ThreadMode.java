package dev.hicachesync.api;

/**
 * How a rank's own threads (prefetch, prefetch I/O, backup, copy completion; see {@link HiCacheRank})
 * hand their work back to the scheduler.
 */
public enum ThreadMode {
  /**
   * Each hand-off waits for its hand-back: the work runs on its thread at the point of the scheduler's
   * call that SGLang's scheduler would observe it (the prefetch pass inside {@link
   * HiCacheRank#runPrefetchThread}, background I/O at the next step's {@link HiCacheRank#checkHicacheEvents},
   * copies one step after they start). Deterministic: the same calls give the same trees, pools and
   * statistics on every run. The default; what the simulator and the tests use.
   */
  STEPPED,
  /**
   * The threads run free, as SGLang's do: the prefetch thread's S7, the storage reads and writes and the copy
   * completions race the scheduler, and only what the sync points reduce decides anything. An engine's mode.
   * The rank's local values (leading done acks, pages read) then depend on thread timing; the agreed ones do
   * not.
   */
  FREE_RUNNING
}
