package dev.hicachesync.modelcheck;

import dev.hicachesync.modelcheck.trace.ErrorTrace;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

  /** TLC's server counting the fingerprint-set servers that registered: "2 out of 2 FPSet server(s) registered". */
  private static final Pattern FP_SET_REGISTERED = Pattern.compile("^(\\d+) out of \\d+ FPSet server\\(s\\) registered");

  /**
   * In TLC's distributed mode with fingerprint-set servers, how many registered with the server before the
   * search (the server held no fingerprints then); 0 for any other run.
   */
  public int fpSetsRegistered() {
    int registered = 0;
    for (String line : output) {
      Matcher m = FP_SET_REGISTERED.matcher(line);
      if (m.find()) {
        registered = Math.max(registered, Integer.parseInt(m.group(1)));
      }
    }
    return registered;
  }

  /** This run as an error with {@code why} (the run was stopped for it): no verdict, no trace. */
  public TlcResult failed(String why) {
    return new TlcResult(exitCode, Verdict.ERROR, distinct, generated, depth, seconds, Optional.empty(), why, log,
        output, remoteWorkers);
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
