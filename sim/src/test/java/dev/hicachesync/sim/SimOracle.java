package dev.hicachesync.sim;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The property every scenario must satisfy, stated once: the simulator (which checks {@code
 * CollectiveMatching}, {@code TreeAgreement}, {@code AckAgreement}, {@code PrefetchAgreement}, {@code
 * AllocAgreement} and {@code HostSlotSafety} at every lockstep point of every rank) reports no divergence,
 * and after {@link Scenario#DRAIN_STEPS} steps without new requests every rank is quiet — the liveness
 * properties {@code PrefetchTerminates}, {@code AcksConsumed} and {@code RequestsProgress} as bounded
 * checks, plus no leaked page.
 *
 * <p>A failure message starts with {@code VIOLATED <name>} (the first violated invariant or liveness
 * property), then the seed, the one-line replay string and the simulator's report.
 */
final class SimOracle {
  /**
   * Collective timeout of a run: reached only when a broken run leaves a rank waiting in a group whose
   * peers have stopped (a fixed run never waits longer than one step of its slowest rank), and each such
   * run then costs about twice this. {@code -Dhicache.sim.timeoutMillis} changes it.
   */
  static final Duration TIMEOUT = Duration.ofMillis(Long.getLong("hicache.sim.timeoutMillis", 1500));
  private static final Pattern VIOLATED = Pattern.compile("VIOLATED (\\w+)");

  private SimOracle() {}

  /**
   * Runs {@code s} and fails (see the class javadoc) unless every invariant and bounded liveness check
   * holds; returns the result.
   */
  static SimResult assertHolds(Scenario s) {
    SimResult r;
    try {
      r = run(s);
    } catch (RuntimeException e) {
      fail("VIOLATED crash: " + e + "\nFailed on seed " + s.seed() + "\nreplay: " + s.encode(), e);
      return null;
    }
    if (r.divergence() != null) {
      fail("VIOLATED " + r.divergence().invariant() + " " + r.divergence().invariants() + "\nFailed on seed "
          + s.seed() + "\nreplay: " + s.encode() + "\n" + r.divergence().describe());
    }
    if (!r.quiescence().isEmpty()) {
      fail("VIOLATED " + livenessName(r.quiescence()) + " within " + Scenario.DRAIN_STEPS
          + " steps after the workload\nFailed on seed " + s.seed() + "\nreplay: " + s.encode() + "\n"
          + String.join("\n", r.quiescence()));
    }
    return r;
  }

  /** Runs {@code s} (with a fresh, preloaded storage folder for file storage, deleted afterwards). */
  static SimResult run(Scenario s) {
    if (s.storage() != StorageMode.FILE) {
      return new Simulator(s.config(TIMEOUT, null)).run();
    }
    java.nio.file.Path dir = null;
    try {
      dir = java.nio.file.Files.createTempDirectory("hicache-qt-");
      s.preloadStorage(dir);
      return new Simulator(s.config(TIMEOUT, dir)).run();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } finally {
      deleteTree(dir);
    }
  }

  private static void deleteTree(java.nio.file.Path dir) {
    if (dir == null) {
      return;
    }
    try (java.util.stream.Stream<java.nio.file.Path> all = java.nio.file.Files.walk(dir)) {
      all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (java.io.IOException e) {
      // a leftover temporary folder is harmless
    }
  }

  /** Returns the property named by the first quiescence error ({@code AcksConsumed}, ...), or {@code quiescence}. */
  static String livenessName(List<String> errors) {
    for (String e : errors) {
      Matcher m = Pattern.compile("(PrefetchTerminates|AcksConsumed|RequestsProgress|HostSlotSafety)").matcher(e);
      if (m.find()) {
        return m.group(1);
      }
    }
    return "quiescence";
  }

  /** Returns every name after {@code VIOLATED} in a report (QuickTheories' or ours). */
  static List<String> violated(String report) {
    List<String> names = new ArrayList<>();
    Matcher m = VIOLATED.matcher(report);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }
}
