package dev.hicachesync.cli;

import dev.hicachesync.cluster.ClusterConfig;
import dev.hicachesync.cluster.ClusterNode;
import dev.hicachesync.cluster.ClusterStartException;
import dev.hicachesync.cluster.LauncherWatch;
import dev.hicachesync.collective.CollectiveException;
import dev.hicachesync.sim.environment.EnvironmentFaults;
import dev.hicachesync.sim.HostedRank;
import dev.hicachesync.sim.ProcessReports;
import dev.hicachesync.sim.RankReport;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.trace.TraceRecorder;
import dev.hicachesync.trace.ndjson.NdjsonTraceRecorder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./hicache-sync rank}: runs ONE rank of a simulation as this process, its groups over JGroups
 * ({@link ClusterNode}: TCP to the peers' ports, a handshake at start-up), with every {@code simulate} option.
 * Writes its part of the report ({@code --report FILE}), its digest log ({@code --digest-log DIR}) and its own
 * trace lines under the run's header ({@code --trace FILE}); prints its own counters. {@code simulate --processes} starts one per rank and adds the parts up.
 */
@Command(name = "rank",
    description = {"Run one rank of a simulation as this process; its peers are other `rank` processes (JGroups, TCP).",
        "Takes every simulate option (the same on every rank) plus the world's. Exit codes: 0 no divergence,"
            + " 1 divergence, 2 bad input or refused at start-up (another version/topology: the handshake names both),"
            + " 3 internal error, 4 I/O failure, 5 a peer rank was lost (killed, crashed, partitioned)."})
public final class RankCommand extends SimulateCommand {

  @Option(names = "--world", required = true, description = "number of rank processes (dp x cp x tp x pp)")
  int world;

  @Option(names = "--rank", required = true, description = "this process's global rank, 0..world-1")
  int rank;

  @Option(names = "--ports", required = true, split = ",", paramLabel = "PORT",
      description = "the TCP port of every rank, in rank order (this rank binds its own)")
  List<Integer> ports;

  @Option(names = "--host", defaultValue = "127.0.0.1",
      description = "the address every rank binds and dials (default ${DEFAULT-VALUE}: loopback)")
  String host;

  @Option(names = "--cluster", defaultValue = "hicache-sync",
      description = "the JGroups cluster name; two worlds on one host need two names (default ${DEFAULT-VALUE})")
  String cluster;

  @Option(names = "--report", paramLabel = "FILE", description = "write this rank's part of the report here")
  Path report;

  @Option(names = "--start-timeout-ms", defaultValue = "60000",
      description = "how long to wait for every rank to say hello (default ${DEFAULT-VALUE})")
  long startTimeoutMs;

  @Option(names = "--kill-self-at", hidden = true, defaultValue = "-1",
      description = "the killed-rank fault of simulate --kill-rank: SIGKILL this process at this step")
  long killSelfAt;

  @Option(names = "--exit-with-launcher", hidden = true,
      description = "simulate --processes: standard input is the launcher's pipe; end when it closes (the launcher died)")
  boolean exitWithLauncher;

  @Override
  public Integer call() {
    String refusal = refusal();
    if (refusal != null) {
      System.err.println("hicache-sync rank: " + refusal);
      return Main.EXIT_BAD_INPUT;
    }
    if (exitWithLauncher) {
      LauncherWatch.exitWhenClosed(System.in, () -> {
        System.err.println("hicache-sync rank: rank " + rank + ": the launcher is gone (its pipe closed); ending");
        System.err.flush();
        Runtime.getRuntime().halt(Main.EXIT_RANK_LOST); // nobody is left to read a report; hooks could block
      });
    }
    return super.call();
  }

  /** Returns why this rank cannot run as asked (one line), or null. */
  private String refusal() {
    if (processes || killRank != null) {
      return "--processes and --kill-rank are simulate's (a rank is one process)";
    }
    if (freshStorage) {
      return "--fresh-storage would let each rank empty the shared store while its peers write; empty it before"
          + " starting the ranks";
    }
    StorageMode mode;
    try {
      mode = StorageMode.parse(storage);
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    if (mode == StorageMode.MEMORY) {
      return "--storage memory lives in one process; ranks as processes share --storage file --storage-dir DIR (or off)";
    }
    if (mode == StorageMode.FILE && storageDir == null) {
      return "--storage file needs --storage-dir: every rank must open the same folder";
    }
    if (log != null) {
      return "--log records one JVM's ranks; not with rank";
    }
    if ((long) dp * cp * tp * pp != world) {
      return "--world " + world + " is not the topology's " + ((long) dp * cp * tp * pp) + " ranks (dp x cp x tp x pp)";
    }
    if (rank < 0 || rank >= world) {
      return "--rank " + rank + " is outside 0.." + (world - 1);
    }
    if (ports.size() != world) {
      return "--ports lists " + ports.size() + " ports for a world of " + world;
    }
    try {
      ClusterConfig.checkPorts(ports);
    } catch (IllegalArgumentException e) {
      return "--ports: " + e.getMessage();
    }
    if (startTimeoutMs < 1 || startTimeoutMs > MAX_TIMEOUT_MS) {
      return "--start-timeout-ms must be in 1.." + MAX_TIMEOUT_MS + " (a day), got " + startTimeoutMs;
    }
    if (report != null) {
      try {
        OutputPaths.checkWritable("--report", report); // before the world assembles, not after the run
      } catch (IllegalArgumentException e) {
        return e.getMessage();
      }
    }
    return null;
  }

  /** Joins the world (handshake), runs this rank, writes its report and returns its own view. */
  @Override
  SimResult run(SimConfig cfg, EnvironmentFaults env) {
    ClusterNode.quietJGroupsLogging();
    ClusterConfig cc;
    try {
      cc = new ClusterConfig(world, rank, host, ports, cfg.collectiveTimeout(), identity(cfg, env), cluster);
    } catch (IllegalArgumentException e) {
      throw new CommandExit(Main.EXIT_BAD_INPUT, e.getMessage());
    }
    RankReport part;
    try (ClusterNode node = ClusterNode.join(cc, Duration.ofMillis(startTimeoutMs));
        NdjsonTraceRecorder rec = trace.on() ? NdjsonTraceRecorder.toFile(trace.trace) : null) {
      part = HostedRank.run(cfg, env, node, digestLog, killSelfAt, rec != null ? rec : TraceRecorder.NONE);
    } catch (IOException e) {
      throw new UncheckedIOException("--trace " + trace.trace + ": " + e.getMessage(), e);
    } catch (ClusterStartException e) {
      throw new CommandExit(Main.EXIT_BAD_INPUT, e.getMessage());
    } catch (CollectiveException e) { // the start barrier: a peer lost before the first step
      throw new CommandExit(Main.EXIT_RANK_LOST, "rank " + rank + ": " + e.getMessage());
    }
    if (report != null) {
      part.write(report);
    }
    if (part.crash() != null) {
      throw new IllegalStateException(part.crash());
    }
    if (!part.lostPeers().isEmpty() && part.divergence() != null && part.divergence().rankB() < 0) {
      // Where this rank stopped, then every rank lost so far: a survivor that waited for another survivor still
      // names the rank that was stopped or killed first.
      throw new CommandExit(Main.EXIT_RANK_LOST, part.error() + " (lost peer rank(s): " + part.lostPeers() + ")");
    }
    return ProcessReports.local(cfg, part);
  }

  /**
   * What every rank of one world must share, compared by the handshake before any collective: a rank of another
   * version, grid, seed or run would decide differently, and is refused naming both sides.
   */
  static String identity(SimConfig cfg, EnvironmentFaults env) {
    List<String> parts = new ArrayList<>();
    parts.add("version=" + cfg.version());
    parts.add("topology=" + cfg.topology());
    parts.add("seed=" + cfg.seed());
    parts.add("steps=" + cfg.steps());
    parts.add("storage=" + cfg.storage());
    parts.add("prefetch=" + cfg.prefetchPolicy());
    parts.add("write=" + cfg.writePolicy());
    if (cfg.hostBufferOnly()) {
      parts.add("host_memory=buffer_only"); // parks hits where a cache-mode rank revokes; absent in cache mode
    }
    // Every other setting a decision reads: capacities (eviction, admission), the L3's bound (each rank's own
    // shard evicts), the bugs injected, the drain, the read failure rate and the seeded faults (read outcomes),
    // the data path (a store's objects must be the same size on every rank), the digest cadence (a cross-check
    // point on one rank is a collective on all). Rank-local settings stay out: the folder, the log files, fsync,
    // the device tier, the host layout (they move the same bytes), the collective timeout (only how long to wait).
    parts.add("page_size=" + cfg.pageSize());
    parts.add("device_pages=" + cfg.devicePages());
    parts.add("host_pages=" + cfg.hostPages());
    parts.add("max_running=" + cfg.maxRunning());
    parts.add("storage_pages=" + cfg.storagePages());
    parts.add("faults=" + cfg.faults());
    parts.add("drain=" + cfg.drainSteps());
    parts.add("read_failure=" + cfg.readFailure());
    parts.add("digest_every=" + cfg.fullDigestEvery());
    parts.add("data=" + (cfg.data().on() ? cfg.data().layers() + "x" + cfg.data().layerBytes() : "off"));
    parts.add("env_faults=" + (env == null ? "none" : env.canonical()));
    if (cfg.abortRunning() > 0) { // set by env_faults' abort_running; compared on its own all the same
      parts.add("abort_running=" + cfg.abortRunning());
    }
    if (cfg.specShaped() != null) { // --trace-loop spec: the request stream every rank must replay
      parts.add("spec_shaped=" + cfg.specShaped().toString().replace(" ", ""));
    }
    return String.join(" ", parts);
  }
}
