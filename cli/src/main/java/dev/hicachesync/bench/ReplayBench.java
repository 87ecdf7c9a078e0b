package dev.hicachesync.bench;

import java.nio.file.Path;

/**
 * Trace replay throughput: {@code simulate --workload} of a trace's first requests on 4 ranks (CP 2 × TP 2)
 * against the same replay on 1 rank, and the cost at several trace lengths (for the chart).
 */
public final class ReplayBench {
  /** Runs one replay the way {@code simulate} does (supplied by the command: the CLI owns the parsing). */
  @FunctionalInterface
  public interface Replayer {
    void replay(Path trace, int requests, int cp, int tp) throws Exception;
  }

  private ReplayBench() {}

  /** Nanoseconds per request of a replay of the first {@code requests} requests. */
  static double nanosPerRequest(Replayer replayer, Path trace, int requests, int cp, int tp) throws Exception {
    long t0 = System.nanoTime();
    replayer.replay(trace, requests, cp, tp);
    return (System.nanoTime() - t0) / (double) requests;
  }
}
