package dev.hicachesync.cli;

import dev.hicachesync.cluster.LocalWorld;
import dev.hicachesync.sim.DigestLogs;
import dev.hicachesync.sim.Divergence;
import dev.hicachesync.sim.ProcessReports;
import dev.hicachesync.sim.RankReport;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.sim.StoreFolders;
import dev.hicachesync.topology.Topology;
import dev.hicachesync.trace.ndjson.RankTraceMerge;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code simulate --processes}: starts one {@code rank} process per rank on this machine ({@link LocalWorld}:
 * loopback, free ports), waits for them, compares their digest logs domain by domain, and adds their reports up
 * into the result the in-JVM run prints; with {@code --trace}, merges the ranks' own traces into the file the
 * in-JVM run writes ({@link RankTraceMerge}). A world where a rank was lost (killed, crashed, stopped past the
 * timeout) is no result: each rank's named error is printed and the run exits {@link Main#EXIT_RANK_LOST}.
 */
final class ProcessLauncher {
  /** Options of the parent that the children must not get (the launcher sets them per rank, or did them). */
  private static final Set<String> PARENT_ONLY = Set.of("--processes", "--fresh-storage");
  private static final Set<String> PARENT_ONLY_WITH_VALUE = Set.of("--storage-dir", "--digest-log", "--kill-rank",
      "--trace");
  /** Each rank JVM: a small heap (pools are small) and one GC thread (the machine may have two cores). */
  private static final List<String> RANK_JVM = List.of("-Xmx512m", "-XX:+UseSerialGC", "-Xss1m");

  private final List<String> args;
  private final String killRank;
  private final Path digestLog;
  /** {@code --trace FILE}: each rank writes its own lines, merged into this file after the world ends; or null. */
  private final Path trace;
  private String faultsLine;

  ProcessLauncher(List<String> originalArgs, String killRank, Path digestLog, Path trace) {
    this.args = originalArgs;
    this.killRank = killRank;
    this.digestLog = digestLog;
    this.trace = trace;
  }

  /** Refuses, before the run, what a world of processes cannot do (one line each, exit 2). */
  static void checkOptions(SimulateCommand c, long runSteps) {
    if (!c.processes) {
      throw new IllegalArgumentException("--kill-rank needs --processes (a rank process kills itself)");
    }
    if (c.trace.on() && c.killRank != null) {
      throw new IllegalArgumentException("--kill-rank and --trace do not go together: a killed rank's trace ends"
          + " inside a collective its peers completed, which no spec step follows");
    }
    if (c.workload.workload != null) {
      throw new IllegalArgumentException("--processes and --workload do not go together yet: the replay's"
          + " per-request report is gathered in one JVM");
    }
    if (c.log != null) {
      throw new IllegalArgumentException("--processes and --log do not go together: the event log is one JVM's");
    }
    if (StorageMode.parse(c.storage) == StorageMode.MEMORY) {
      throw new IllegalArgumentException("--processes needs --storage file or off: a memory store lives in one"
          + " process, and the ranks must share their L3");
    }
    if (c.killRank != null) {
      long[] k = killTarget(c.killRank, c.dp * c.cp * c.tp * c.pp);
      if (k[1] >= runSteps) {
        throw new IllegalArgumentException("--kill-rank " + c.killRank + ": step " + k[1] + " is past the run's last"
            + " step (" + runSteps + " steps, --steps plus --drain): the rank would never be killed");
      }
    }
  }

  /** Returns {rank, step} of {@code --kill-rank R@STEP}. */
  static long[] killTarget(String spec, int world) {
    String[] p = spec.split("@", -1);
    try {
      if (p.length == 2) {
        long r = Long.parseLong(p[0].trim());
        long s = Long.parseLong(p[1].trim());
        if (r >= 0 && r < world && s >= 0) {
          return new long[] {r, s};
        }
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new IllegalArgumentException("--kill-rank must be R@STEP with 0 <= R < " + world + " and STEP >= 0, got '"
        + spec + "'");
  }

  /** Returns the world's {@code faults injected} line (the ranks' counts summed), after {@link #run}. */
  String faultsLine() {
    return faultsLine;
  }

  SimResult run(SimConfig cfg) {
    Topology t = cfg.topology();
    int world = t.worldSize();
    long[] kill = killRank == null ? null : killTarget(killRank, world);
    Path work = null;
    Path tempStore = null;
    try {
      work = Files.createTempDirectory("hicache-procs-");
      Path logs = digestLog != null ? digestLog : work.resolve("digests");
      Path store = cfg.storageDir();
      if (cfg.storage() == StorageMode.FILE && store == null) {
        store = tempStore = Files.createTempDirectory("hicache-sim-");
      }
      List<String> base = childArgs(args);
      Path reports = work;
      Path shared = store;
      long start = System.nanoTime(); // reporting only
      List<LocalWorld.RankExit> exits;
      try (LocalWorld w = LocalWorld.start(world, Main.class.getName(), RANK_JVM, (r, ports, cluster) -> {
        List<String> a = new ArrayList<>();
        a.add("rank");
        a.addAll(base);
        a.addAll(List.of("--world", String.valueOf(world), "--rank", String.valueOf(r), "--ports", join(ports),
            "--cluster", cluster, "--report", reports.resolve("rank-" + r + ".report").toString(),
            "--digest-log", logs.toString(), "--exit-with-launcher"));
        if (shared != null) {
          a.addAll(List.of("--storage-dir", shared.toString()));
        }
        if (trace != null) {
          a.addAll(List.of("--trace", rankTrace(reports, r).toString()));
        }
        if (kill != null && kill[0] == r) {
          a.addAll(List.of("--kill-self-at", String.valueOf(kill[1])));
        }
        return a;
      })) {
        // An interrupted launcher (Ctrl-C, SIGTERM) takes its ranks with it: nothing is left running.
        Thread reaper = new Thread(w::close, "rank-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        try {
          // Each rank bounds its own waits by the collective timeout; the grace after a first failure lets
          // the survivors name it before anything is killed.
          // A rank every ended rank named lost (stopped: it never ends by itself) is killed at once.
          exits = w.await(Duration.ofDays(7), cfg.collectiveTimeout().plusSeconds(10),
              r -> namedLostByAllEnded(w, reports, r));
        } finally {
          Runtime.getRuntime().removeShutdownHook(reaper);
        }
      }
      long elapsed = (System.nanoTime() - start) / 1_000_000;
      failIfLost(exits, reports, cfg.collectiveTimeout());
      List<RankReport> parts = new ArrayList<>();
      for (int r = 0; r < world; r++) {
        parts.add(RankReport.read(reports.resolve("rank-" + r + ".report")));
      }
      if (trace != null) {
        mergeTraces(reports, world);
      }
      Divergence fromLogs = DigestLogs.compare(t, logs);
      faultsLine = ProcessReports.faults(parts);
      return ProcessReports.combine(cfg, parts, fromLogs, elapsed);
    } catch (IOException e) {
      throw new UncheckedIOException("rank processes: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommandExit(Main.EXIT_TOOL_FAILED, "interrupted while waiting for the rank processes");
    } finally {
      if (work != null) {
        StoreFolders.deleteTree(work);
      }
      if (tempStore != null) {
        StoreFolders.deleteTree(tempStore);
      }
    }
  }

  private static Path rankTrace(Path work, int r) {
    return work.resolve("rank-" + r + ".trace.ndjson");
  }

  /**
   * Merges the ranks' own traces into {@code --trace}'s file ({@link RankTraceMerge}: each rank's order kept, a
   * collective's lines after every member's earlier ones); says on stderr how many lines had no matching line
   * of a peer (a rank that stopped first).
   */
  private void mergeTraces(Path work, int world) throws IOException {
    List<Path> files = new ArrayList<>();
    for (int r = 0; r < world; r++) {
      files.add(rankTrace(work, r));
    }
    RankTraceMerge.Result m;
    try {
      m = RankTraceMerge.merge(files, trace);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("merging the ranks' traces: " + e.getMessage(), e);
    }
    if (m.unmatched() > 0) {
      System.err.printf(Locale.ROOT, "trace: %d of %d line(s) are of collectives a peer never logged (a rank"
          + " stopped first); written after the lines before them, as one JVM writes them%n", m.unmatched(),
          m.lines());
    }
  }

  /** Whether every rank that has ended wrote a report naming {@code rank} among its lost peers. */
  private static boolean namedLostByAllEnded(LocalWorld w, Path reports, int rank) {
    List<Process> ps = w.processes();
    boolean any = false;
    for (int k = 0; k < ps.size(); k++) {
      if (k == rank || ps.get(k).isAlive()) {
        continue;
      }
      if (!lostPeers(reports, k).contains(rank)) {
        return false;
      }
      any = true;
    }
    return any;
  }

  /** The lost peers rank {@code k}'s report names; empty when it wrote none. */
  private static List<Integer> lostPeers(Path reports, int k) {
    Path f = reports.resolve("rank-" + k + ".report");
    if (!Files.exists(f)) {
      return List.of();
    }
    try {
      return RankReport.read(f).lostPeers();
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  /**
   * A world where a rank ended other than with a result (0 or 1 and its report): prints each rank's exit and
   * named error on stderr, with how long after the first failure it ended, and throws the world's exit.
   */
  private static void failIfLost(List<LocalWorld.RankExit> exits, Path reports, Duration timeout) {
    boolean ok = true;
    long firstEnd = Long.MAX_VALUE;
    for (LocalWorld.RankExit x : exits) {
      boolean good = (x.exitCode() == 0 || x.exitCode() == 1)
          && Files.exists(reports.resolve("rank-" + x.rank() + ".report"));
      if (!good) {
        ok = false;
        firstEnd = Math.min(firstEnd, x.exitNanos());
      }
    }
    if (ok) {
      return;
    }
    int code = Main.EXIT_TOOL_FAILED;
    String first = null;
    java.util.Set<Integer> named = new java.util.TreeSet<>(); // the ranks the others named lost
    for (LocalWorld.RankExit x : exits) {
      named.addAll(lostPeers(reports, x.rank()));
    }
    for (LocalWorld.RankExit x : exits) {
      String error = errorLine(x, named.contains(x.rank()));
      System.err.printf(Locale.ROOT, "rank %d: exit %d, %.1f s after the first failure%s%n", x.rank(), x.exitCode(),
          Math.max(0, x.exitNanos() - firstEnd) / 1e9, error == null ? "" : ": " + error);
      code = worse(code, x);
      if (first == null && error != null && x.exitCode() == Main.EXIT_BAD_INPUT) {
        first = error;
      }
    }
    List<Integer> lost = new ArrayList<>();
    for (LocalWorld.RankExit x : exits) {
      if (x.killed() || x.exitCode() > 128) { // a stopped rank is killed here once the others named it
        lost.add(x.rank());
      }
    }
    if (first == null) {
      first = lost.isEmpty() ? "a rank process failed (the lines above name each rank's error)"
          : "rank process(es) " + lost + " lost (killed, crashed or stopped); every other rank named it or ended"
              + " (collective timeout " + timeout.toMillis() + " ms)";
    }
    throw new CommandExit(code, first);
  }

  /** The world's exit: a refusal (2) first, then a lost rank (5), an I/O failure (4), anything else (3). */
  private static int worse(int code, LocalWorld.RankExit x) {
    int c = x.exitCode();
    if (c == Main.EXIT_BAD_INPUT || code == Main.EXIT_BAD_INPUT) {
      return Main.EXIT_BAD_INPUT;
    }
    if (x.killed() || c > 128 || c == Main.EXIT_RANK_LOST || code == Main.EXIT_RANK_LOST) {
      return Main.EXIT_RANK_LOST;
    }
    if (c == Main.EXIT_IO_FAILED || code == Main.EXIT_IO_FAILED) {
      return Main.EXIT_IO_FAILED;
    }
    return code;
  }

  /** Returns a rank's named error (its {@code hicache-sync rank:} line), or a description of its end. */
  private static String errorLine(LocalWorld.RankExit x, boolean namedLost) {
    for (String line : x.output()) {
      if (line.startsWith("hicache-sync")) {
        return line;
      }
    }
    if (x.killed() && namedLost) {
      return "lost: the other ranks named it (no call and no beat past the timeout: stopped or hung); killed";
    }
    if (x.killed()) {
      return "did not end within the grace period; killed";
    }
    if (x.exitCode() > 128) {
      return "killed by signal " + (x.exitCode() - 128);
    }
    return null;
  }

  /** The parent's arguments minus what the launcher sets for each rank. */
  static List<String> childArgs(List<String> original) {
    List<String> out = new ArrayList<>();
    // From ./hicache-sync the arguments start with the subcommand's name; from the command object they do not.
    for (int i = original.isEmpty() || !original.get(0).equals("simulate") ? 0 : 1; i < original.size(); i++) {
      String a = original.get(i);
      String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      if (PARENT_ONLY.contains(name)) {
        continue;
      }
      if (PARENT_ONLY_WITH_VALUE.contains(name)) {
        if (!a.contains("=")) {
          i++; // its value
        }
        continue;
      }
      out.add(a);
    }
    return out;
  }

  private static String join(List<Integer> ports) {
    List<String> s = new ArrayList<>();
    for (int p : ports) {
      s.add(String.valueOf(p));
    }
    return String.join(",", s);
  }
}
