package dev.hicachesync.modelcheck;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The JVMs a distributed search runs on this machine beside TLC's server ({@link DistributedTlc}'s commands):
 * its fingerprint-set servers, output in {@code fpset-N.log}, and its workers, output in {@code worker-N.log}.
 *
 * <p>Why the runner watches the fingerprint-set servers and not the workers: the server hands a lost worker's
 * states to the others, but it counts its fingerprint-set servers before the search and holds no fingerprints of
 * its own, so one that is gone (or never registered) leaves it waiting for ever.
 */
final class DistributedHelpers {

  /** No helpers: a search in one JVM. */
  static final DistributedHelpers NONE = new DistributedHelpers(List.of(), List.of());

  /** Seconds a helper gets to exit on its own after the server has ended. */
  private static final int GRACE_SECONDS = 10;

  private final List<Process> fpSets;
  private final List<Process> workers;
  /** When {@link #lost} first saw a fingerprint-set server gone (0: none gone). */
  private long goneSince;

  private DistributedHelpers(List<Process> fpSets, List<Process> workers) {
    this.fpSets = fpSets;
    this.workers = workers;
  }

  /**
   * Starts the local fingerprint-set servers, then the local workers, of {@code search} in {@code dir}. Each
   * finds the server through its registry port once the server is up, so they may start before it.
   *
   * @throws IOException if one cannot be started (those started so far are stopped)
   */
  static DistributedHelpers start(DistributedTlc tlc, Path dir, TlcSearch.Distributed search) throws IOException {
    List<Process> fpSets = new ArrayList<>();
    List<Process> workers = new ArrayList<>();
    try {
      for (int i = 1; i <= search.localFpSets(); i++) {
        Files.createDirectories(dir.resolve("tmp").resolve("fpset-" + i));
        fpSets.add(start(tlc.fpSetCommand(dir, i), dir, "fpset-" + i + ".log"));
      }
      for (int i = 1; i <= search.localWorkers(); i++) {
        workers.add(start(tlc.workerCommand(dir, i), dir, "worker-" + i + ".log"));
      }
    } catch (IOException e) {
      fpSets.forEach(TlcRunner::killTree); // they would wait for a server that never comes
      workers.forEach(TlcRunner::killTree);
      throw e;
    }
    return new DistributedHelpers(fpSets, workers);
  }

  private static Process start(List<String> command, Path dir, String log) throws IOException {
    return new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(dir.resolve(log).toFile()).start();
  }

  /**
   * Why the search cannot end, called while the server runs at {@code now} (nanoTime): a local fingerprint-set
   * server gone for the grace period (its share of the fingerprints is lost, or it never registered); else
   * null. Why a grace period: a server that ends the search tells them to exit just before it exits itself.
   */
  String lost(long now) {
    for (int i = 0; i < fpSets.size(); i++) {
      Process fpSet = fpSets.get(i);
      if (!fpSet.isAlive()) {
        goneSince = goneSince == 0 ? now : goneSince;
        return now - goneSince <= TimeUnit.SECONDS.toNanos(GRACE_SECONDS) ? null
            : "fingerprint-set server " + (i + 1) + " exited (code " + fpSet.exitValue()
                + ") before the TLC server; its output is in fpset-" + (i + 1) + ".log";
      }
    }
    goneSince = 0;
    return null;
  }

  /**
   * After the server has ended: each helper gets the grace period to exit, as the server tells it to, or is
   * stopped at once when {@code serverStopped} (the server was killed: nobody will tell it).
   */
  void finish(boolean serverStopped) throws InterruptedException {
    for (Process helper : all()) {
      if (serverStopped || !helper.waitFor(GRACE_SECONDS, TimeUnit.SECONDS)) {
        TlcRunner.killTree(helper);
      }
    }
  }

  /** Stops every helper now. */
  void kill() {
    all().forEach(TlcRunner::killTree);
  }

  private List<Process> all() {
    List<Process> all = new ArrayList<>(fpSets);
    all.addAll(workers);
    return all;
  }
}
