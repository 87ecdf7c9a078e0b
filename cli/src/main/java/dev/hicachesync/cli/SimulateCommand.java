package dev.hicachesync.cli;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.sim.environment.EnvironmentFaults;
import dev.hicachesync.sim.workload.SyntheticWorkload;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.Simulator;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.storage.FileStorageBackend;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import dev.hicachesync.workload.MalformedTraceException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ./hicache-sync simulate}: runs every rank of a topology through the deterministic simulator and
 * prints hit rates, collectives per step, data moved and the first divergence (exit 1) or {@code
 * divergence: none} (exit 0); bad input exits 2 with one line.
 */
@Command(name = "simulate",
    description = {"Run the ranks of a topology through the deterministic multi-rank simulator.",
        "At most " + WorldLimits.SIMULATE + " ranks (dp x cp x tp x pp). Exit codes: 0 no divergence, 1 divergence,"
            + " 2 bad input, 3 internal error, 4 I/O failure during the run (disk full, storage backend error)."})
public class SimulateCommand implements Callable<Integer> {

  @Option(names = "--dp", defaultValue = "1", description = "attention-DP replicas (default ${DEFAULT-VALUE})")
  int dp;

  @Option(names = "--cp", defaultValue = "2", description = "attention-CP size (default ${DEFAULT-VALUE})")
  int cp;

  @Option(names = "--tp", defaultValue = "2", description = "attention-TP size (default ${DEFAULT-VALUE})")
  int tp;

  @Option(names = "--pp", defaultValue = "1", description = "pipeline stages (default ${DEFAULT-VALUE})")
  int pp;

  @Option(names = "--steps", defaultValue = "20000", description = "scheduler steps (default ${DEFAULT-VALUE})")
  long steps;

  @Option(names = "--seed", defaultValue = "7", description = "the one seed (default ${DEFAULT-VALUE})")
  long seed;

  // No mixinStandardHelpOptions: its -V/--version would shadow the protocol --version flag.
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help.")
  boolean help;

  @Option(names = "--version", defaultValue = "unified",
      description = "protocol version: pre20460, post20460, merged, pipelined, unified (default ${DEFAULT-VALUE},"
          + " SGLang's unified radix cache; merged with --trace-loop spec, whose spec is HiCacheSync.tla)")
  String version;

  @Option(names = {"--storage", "--hicache-storage-backend"}, defaultValue = "memory",
      description = "L3 storage: file, memory, off (default ${DEFAULT-VALUE})")
  String storage;

  @Option(names = "--storage-dir",
      description = "folder of the file storage, kept after the run (default: a temporary one, removed at exit)")
  Path storageDir;

  @Option(names = "--fresh-storage",
      description = "remove the page objects a reused --storage-dir holds before the run (a seed then replays)")
  boolean freshStorage;

  @Option(names = "--storage-durable",
      description = "with --storage file: fsync each page object before its rename, then its folder after it"
          + " (off by default; the report counts the forces)")
  boolean storageDurable;

  @Option(names = "--hicache-host-memory-mode", defaultValue = "cache", paramLabel = "MODE",
      description = "host memory mode: cache (default) or buffer_only (#34798, version unified only: storage hits"
          + " the host pool cannot serve are parked and retried, docs/explanation/unified.md)")
  String hostMemoryMode;

  @Option(names = {"--policy", "--hicache-storage-prefetch-policy"}, defaultValue = "timeout",
      description = "prefetch policy: best_effort, wait_complete, timeout (default ${DEFAULT-VALUE})")
  String policy;

  @Option(names = {"--write-policy", "--hicache-write-policy"}, defaultValue = "write_through",
      description = "write policy: write_through, write_through_selective, write_back (default ${DEFAULT-VALUE})")
  String writePolicy;

  @Option(names = "--fault", split = ",", completionCandidates = FaultNames.class,
      description = "inject protocol bugs and scenarios (tests); each kind's versions, bug and catalogue model are in"
          + " docs/reference/fault-grammar.md: ${COMPLETION-CANDIDATES}")
  List<String> faults;

  @Option(names = "--faults", paramLabel = "SPEC",
      description = "environment faults of a soak, KIND=P[,KIND=P]...: read_fail, corrupt, missing, slow, abort,"
          + " backend_error (docs/reference/fault-grammar.md)")
  String environmentFaults;

  @Option(names = "--device-pages", defaultValue = "192", description = "L1 pages per rank (default ${DEFAULT-VALUE})")
  int devicePages;

  @Option(names = "--host-pages", defaultValue = "256", description = "L2 pages per rank (default ${DEFAULT-VALUE})")
  int hostPages;

  @Option(names = "--drain", defaultValue = "0",
      description = "steps without new requests after the run, then check every rank is quiet and leak-free")
  long drain;

  @Option(names = "--log", description = "write a readable event log (one line per reduction) to this file")
  Path log;

  @Option(names = "--timeout-ms", defaultValue = "10000",
      description = "collective timeout in ms (default ${DEFAULT-VALUE})")
  long timeoutMs;

  @Option(names = "--processes",
      description = "run each rank as its own process on this machine (loopback, free ports) and gather their reports;"
          + " needs --storage file or off (docs/howto/run-ranks-as-processes.md)")
  boolean processes;

  @Option(names = "--kill-rank", paramLabel = "R@STEP",
      description = "with --processes: rank R's process kills itself (SIGKILL) at step STEP (docs/reference/fault-grammar.md)")
  String killRank;

  @Option(names = "--digest-log", paramLabel = "DIR",
      description = "write each rank's digest at every lockstep point to DIR/rank-R.digests")
  Path digestLog;

  /** Trace replay ({@code --workload}) and SGLang-named capacities; see {@link WorkloadOptions}. */
  @Mixin
  WorkloadOptions workload;

  /** Real KV bytes through the tiers ({@code --data}, {@code --page-bytes}, ...); see {@link DataPathOptions}. */
  @Mixin
  DataPathOptions dataPath;

  /** {@code --trace FILE}: this run's trace, or a spec-shaped run's; see {@link TraceOptions}. */
  @Mixin
  TraceOptions trace;

  @Spec
  CommandSpec spec;

  /** Longest collective timeout: one day (waits are kept in nanoseconds; a longer one is a hang). */
  static final long MAX_TIMEOUT_MS = 86_400_000L;

  @Override
  public Integer call() {
    SimConfig cfg;
    Replay replay;
    EnvironmentFaults env = null;
    try {
      EnumSet<Fault> fs = EnumSet.noneOf(Fault.class);
      if (faults != null) {
        for (String f : faults) {
          try {
            fs.add(Fault.valueOf(f.trim().toUpperCase(Locale.ROOT)));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown fault '" + f + "'; expected one of "
                + String.join(", ", new FaultNames()));
          }
        }
      }
      WorldLimits.check("simulate", WorldLimits.SIMULATE, dp, cp, tp, pp);
      trace.checkGiven(spec.commandLine().getParseResult());
      checkPaths();
      if (drain < 0) {
        throw new IllegalArgumentException("--drain must be >= 0");
      }
      if (timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) {
        // Bounded: a wait is kept in nanoseconds, and a day is past any collective that is not a hang.
        throw new IllegalArgumentException("--timeout-ms must be in 1.." + MAX_TIMEOUT_MS + " (a day), got " + timeoutMs);
      }
      SimConfig.Builder b = SimConfig.builder()
          .topology(Topology.of(dp, cp, tp, pp))
          .steps(steps)
          .seed(seed)
          .version(versionOf(specTrace() && !spec.commandLine().getParseResult().hasMatchedOption("--version")))
          .storage(StorageMode.parse(storage))
          .storageDir(storageDir)
          .storageDurable(storageDurable)
          .hostBufferOnly(bufferOnly())
          .prefetchPolicy(PrefetchPolicy.parse(policy))
          .writePolicy(WritePolicy.parse(writePolicy))
          .faults(fs)
          .devicePages(devicePages)
          .hostPages(hostPages)
          .collectiveTimeout(Duration.ofMillis(timeoutMs))
          .drainSteps(drain)
          .logFile(log)
          .data(dataPath.options());
      replay = workload.apply(b, StorageMode.parse(storage), dp, devicePages, hostPages, steps, drain);
      if (trace.on()) {
        trace.apply(b, spec.commandLine().getParseResult(), seed, storage,
            versionOf(specTrace() && !spec.commandLine().getParseResult().hasMatchedOption("--version"))
                == ProtocolVersion.UNIFIED);
      }
      cfg = b.build();
      if (trace.on() && cfg.version() == ProtocolVersion.PIPELINED) { // the trace format names the specs' versions
        throw new IllegalArgumentException("--trace records runs of the versions validate-trace follows (pre20460,"
            + " post20460, merged, unified); version pipelined's asynchronous S123 has no trace rules");
      }
      if (environmentFaults != null) {
        if (specTrace()) {
          throw new IllegalArgumentException("--faults and --trace-loop " + trace.loop + " do not go together: a"
              + " spec-shaped run has no environment faults the spec models (--trace alone traces the soak)");
        }
        env = EnvironmentFaults.parse(environmentFaults);
        env.check(cfg);
        cfg = env.apply(b, cfg.timing(), cfg.workload() != null ? cfg.workload()
            : SyntheticWorkload.factory(cfg.pageSize())).build();
      }
      DataPathOptions.check(cfg);
      if (processes || killRank != null) {
        ProcessLauncher.checkOptions(this, cfg.steps() + cfg.drainSteps());
      }
      if (freshStorage && cfg.storage() == StorageMode.FILE) {
        // Only once every flag is known good: this deletes files (only the page objects and temporary files
        // of a folder that carries the store marker; anything else is refused or kept).
        System.out.println(FileStorageBackend.clear(storageDir).describe(storageDir));
      }
    } catch (IllegalArgumentException | MalformedTraceException e) { // InvalidTopologyException included
      System.err.println("hicache-sync simulate: " + e.getMessage());
      return Main.EXIT_BAD_INPUT;
    } catch (IOException e) {
      System.err.println("hicache-sync simulate: cannot read " + workload.workload + ": " + e);
      return Main.EXIT_BAD_INPUT;
    }
    System.out.println("seed: " + cfg.seed());
    System.out.printf(Locale.ROOT,
        "topology: %s (%d ranks), version %s, storage %s, prefetch %s, write %s, steps %d%s%n",
        cfg.topology(), cfg.topology().worldSize(), cfg.version(), cfg.storage(), cfg.prefetchPolicy(),
        cfg.writePolicy(), cfg.steps(), cfg.faults().isEmpty() ? "" : ", faults " + cfg.faults());
    if (replay != null) {
      System.out.println(replay.header());
    }
    SimResult r;
    try {
      r = run(cfg, env);
    } catch (RuntimeException e) {
      return RunFailures.report(spec.name(), e);
    }
    System.out.println(r.stats().describe());
    if (env != null) {
      System.out.println(faultsLine(env));
    }
    if (trace.on() && cfg.specShaped() == null) {
      System.out.println("trace: " + trace.trace + " (this run, the simulator's own loop; validate-trace checks it"
          + " with TraceHiCacheRun.tla)");
    } else if (trace.on()) {
      System.out.println("trace: " + trace.trace + " (spec-shaped, requests "
          + cfg.specShaped().requests() + ", " + cfg.specShaped().pagesPerKey() + " page(s) per key, device "
          + cfg.devicePages() + " host " + cfg.hostPages() + " pages)");
    }
    if (replay != null) {
      System.out.println(replay.report(r));
    }
    System.out.printf(Locale.ROOT, "steps: %d in %.1f s (%.0f steps/s)%n", r.stepsCompleted(),
        r.elapsedMillis() / 1000.0, r.stepsCompleted() * 1000.0 / Math.max(1, r.elapsedMillis()));
    if (r.ok()) {
      System.out.println("divergence: none");
      return 0;
    }
    if (r.divergence() == null) {
      System.out.println("divergence: none");
      System.out.println("not quiet after " + cfg.drainSteps() + " drain steps:");
      r.quiescence().forEach(q -> System.out.println("  " + q));
      System.out.println("Failed on seed " + cfg.seed());
      return 1;
    }
    System.out.println(r.divergence().describe());
    System.out.println("Failed on seed " + cfg.seed());
    return 1;
  }

  /** Runs the configured simulation: every rank in this JVM, or (--processes) each rank in its own process. */
  SimResult run(SimConfig cfg, EnvironmentFaults env) {
    if (processes) {
      launcher = new ProcessLauncher(spec.commandLine().getParseResult().originalArgs(), killRank, digestLog,
          trace.trace);
      return launcher.run(cfg);
    }
    if (trace.on()) { // the same run, recording its trace
      return trace.run(cfg, sim -> sim.withFaults(env).withDigestLogs(digestLog));
    }
    return new Simulator(cfg).withFaults(env).withDigestLogs(digestLog).run();
  }

  /** Whether the run is traced spec-shaped ({@code --trace} with {@code --trace-loop spec} or {@code spec-in-step}). */
  private boolean specTrace() {
    return trace.on() && trace.specShaped();
  }

  /** The launcher of a --processes run (it holds the world's fault counts), or null. */
  private ProcessLauncher launcher;

  /** Returns the faults line: this JVM's counts, or the sum of the rank processes' counts. */
  String faultsLine(EnvironmentFaults env) {
    return launcher != null ? launcher.faultsLine() : env.describe();
  }

  /**
   * The version of the run: {@code --version}, or, for a spec-shaped run that names none, {@link
   * ProtocolVersion#DEFAULT} (merged): its trace is validated against HiCacheSync.tla, which has no unified.
   */
  private ProtocolVersion versionOf(boolean traceWithoutVersion) {
    return traceWithoutVersion ? ProtocolVersion.DEFAULT : ProtocolVersion.parse(version);
  }

  /**
   * Checks every path the run writes before it starts: the storage folder (created, probed, real path),
   * the trace and the log ({@code --fresh-storage} empties the folder later, once every flag is checked).
   */
  private void checkPaths() {
    if (storageDir != null) {
      StorageMode mode = StorageMode.parse(storage);
      if (mode != StorageMode.FILE) {
        throw new IllegalArgumentException("--storage-dir is the folder of --storage file, but --storage is "
            + mode.name().toLowerCase(Locale.ROOT) + ": no folder would be used");
      }
      FileStorageBackend.checkRoot(storageDir);
    } else if (freshStorage) {
      throw new IllegalArgumentException("--fresh-storage needs --storage-dir (a temporary store starts empty)");
    }
    if (trace.trace != null) {
      OutputPaths.checkWritable("--trace", trace.trace);
    }
    if (log != null) {
      OutputPaths.checkWritable("--log", log);
    }
    if (digestLog != null) {
      OutputPaths.checkWritableFolder("--digest-log", digestLog);
    }
  }

  /** {@code --hicache-host-memory-mode}: cache or buffer_only (one-line error otherwise). */
  private boolean bufferOnly() {
    switch (hostMemoryMode) {
      case "cache":
        return false;
      case "buffer_only":
        return true;
      default:
        throw new IllegalArgumentException("--hicache-host-memory-mode must be cache or buffer_only, got '"
            + hostMemoryMode + "'");
    }
  }

  /** Every {@code --fault} kind, as the option takes it: the {@link Fault} constants in lower case. */
  static final class FaultNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return java.util.Arrays.stream(Fault.values()).map(k -> k.name().toLowerCase(Locale.ROOT)).iterator();
    }
  }
}
