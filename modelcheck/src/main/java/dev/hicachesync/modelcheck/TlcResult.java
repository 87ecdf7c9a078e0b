package dev.hicachesync.modelcheck;

import dev.hicachesync.modelcheck.trace.ErrorTrace;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What one TLC run produced.
 *
 * @param exitCode TLC's exit code (-1 when it was killed at the time limit)
 * @param verdict the observed verdict
 * @param distinct distinct states found (0 if TLC never got to explore)
 * @param generated states generated
 * @param depth depth of the state graph TLC reported (or reached, if it was stopped)
 * @param seconds wall time of the TLC process
 * @param trace the counterexample, if TLC printed one
 * @param message for an error or timeout, TLC's message in one line; else ""
 * @param log the file holding TLC's complete output
 * @param output TLC's output lines
 * @param remoteWorkers in TLC's distributed mode, each worker that took part and its share; else empty
 */
public record TlcResult(
    int exitCode,
    Verdict verdict,
    long distinct,
    long generated,
    int depth,
    double seconds,
    Optional<ErrorTrace> trace,
    String message,
    Path log,
    List<String> output,
    List<RemoteWorker> remoteWorkers) {

  public TlcResult {
    output = List.copyOf(output);
    remoteWorkers = List.copyOf(remoteWorkers);
  }

  /** A run in one TLC JVM. */
  public TlcResult(int exitCode, Verdict verdict, long distinct, long generated, int depth, double seconds,
      Optional<ErrorTrace> trace, String message, Path log, List<String> output) {
    this(exitCode, verdict, distinct, generated, depth, seconds, trace, message, log, output, List.of());
  }

  /**
   * One worker of a distributed run, as the server reports it when the search ends.
   *
   * @param uri the worker's RMI address
   * @param sent states the server sent it to expand
   * @param received successor states it sent back
   */
  public record RemoteWorker(String uri, long sent, long received) {}
}
