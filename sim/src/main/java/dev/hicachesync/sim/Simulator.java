package dev.hicachesync.sim;

import dev.hicachesync.collective.LocalFabric;
import dev.hicachesync.sim.datapath.PromptSeeds;
import dev.hicachesync.sim.environment.EnvironmentFaults;
import dev.hicachesync.sim.environment.Timing;
import dev.hicachesync.sim.spec.SpecTraces;
import dev.hicachesync.storage.StorageBackend;
import dev.hicachesync.topology.Topology;
import dev.hicachesync.trace.TraceRecorder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs every rank of a topology in one JVM, one thread per rank, through a {@link LocalFabric}, and stops
 * at the first divergence (see the package javadoc for why the outcome does not depend on thread timing).
 *
 * <p>Each sync domain's first rank is its leader: before each RECV it compares the domain's recorded
 * digests of two steps back and, on a disagreement, tells every member to stop through the RECV payload,
 * so the members stop together. A collective mismatch or timeout, or a local invariant violation, stops
 * the run too and counts as that invariant. One {@code run()} per instance.
 */
public final class Simulator {
  /**
   * {@code -Dhicache.sim.inlineRankThreads=true|false|auto}: whether each rank's prefetch, I/O and backup work
   * runs on the rank's own thread ({@code true}) or on its stepped controller threads ({@code false}). Same
   * reports and digests either way (the work happens at the same virtual instants, and a stepped hand-off
   * waits for its hand-back). {@code auto} (the default, and any other value) runs it inline when the
   * run's rank threads alone fill the processors ({@link #inlineRankThreads}).
   */
  static final String INLINE_RANK_THREADS = System.getProperty("hicache.sim.inlineRankThreads", "auto");

  /**
   * Returns whether a run of {@code ranks} rank threads on {@code processors} processors runs the stepped
   * controller work on the rank threads, under the setting {@code setting} ({@link #INLINE_RANK_THREADS}).
   *
   * <p>Why inline when the ranks fill the processors: a stepped hand-off never overlaps anything (the rank
   * waits for it), so it buys only the controller threads' exercise, and its cost is two context switches
   * or more; when every processor already has a rank to run, the worker must take a processor from a rank
   * and give it back each time: the Mooncake replay's first 3,000 requests at CP 2 x TP 2 on 2 cores made
   * 790,000 involuntary context switches with the hand-offs and 179,000 without, 5.3 s of system time
   * against 3.3 s (docs/explanation/concurrency.md). With a spare processor per rank the threads cost little and keep
   * running, so the simulator still exercises them where it can. Timing never decides anything: the
   * choice is a function of the topology and the machine, and either choice gives the same report.
   */
  static boolean inlineRankThreads(String setting, int ranks, int processors) {
    return switch (setting) {
      case "true" -> true;
      case "false" -> false;
      default -> ranks >= processors;
    };
  }

  private final SimConfig cfg;
  /** The first divergence, a crash, and what frees the peers of a rank that stopped. */
  private final StopSignals stops = new StopSignals();
  /** In a replay for the report: the step whose readable views ranks {@code viewRanks} record; -1 otherwise. */
  private final long viewStep;
  private final int[] viewRanks;
  private RankRecorder[] recorders;
  /** Each rank's L3 store, set by {@link #setUp} (evictions are summed into the statistics at the end). */
  private RunStores stores;
  /** Where the run's trace goes ({@link TraceRecorder#NONE}: nothing is wrapped or recorded). */
  private final TraceRecorder trace;

  /** Page seeds of prompts, computed once for every rank's data path (the ranks share request objects). */
  private final PromptSeeds promptSeeds = new PromptSeeds();

  /** Environment faults of a soak ({@code simulate --faults}), or null: the store as it is. */
  private EnvironmentFaults faults;
  /** Where the ranks' groups come from: null for a {@link LocalFabric} of every rank in this JVM. */
  private GroupSource groups;
  /** The one rank this process hosts ({@link HostedRank}), or -1: every rank of the topology. */
  private int hosted = -1;
  /** A folder for each rank's digest log ({@code rank-R.digests}), or null: no logs. */
  private Path digestLogs;
  /** Whether the stepped controller work runs on the rank threads; null: {@link #INLINE_RANK_THREADS} decides. */
  private Boolean inlineRankThreads;

  /**
   * Runs each rank's stepped controller work on the rank's own thread ({@code true}) or on its controller
   * threads ({@code false}), whatever {@code -Dhicache.sim.inlineRankThreads} says; returns this simulator.
   * For tests that compare the two.
   */
  Simulator inlineRankThreads(boolean inline) {
    this.inlineRankThreads = inline;
    return this;
  }

  /**
   * Writes each rank's digest at every lockstep point to {@code dir/rank-R.digests} ({@link DigestLog});
   * returns this simulator.
   */
  public Simulator withDigestLogs(Path dir) {
    this.digestLogs = dir;
    return this;
  }

  /** Makes this simulator build only {@code rank}, its groups from {@code source} (a rank process). */
  Simulator hosting(int rank, GroupSource source) {
    this.hosted = rank;
    this.groups = source;
    return this;
  }

  /**
   * Injects {@code f}'s storage faults into this run's stores (its timing and workload faults are in the
   * configuration already, {@link EnvironmentFaults#apply}); returns this simulator.
   */
  public Simulator withFaults(EnvironmentFaults f) {
    this.faults = f;
    return this;
  }

  /** Creates a simulator of {@code cfg}. */
  public Simulator(SimConfig cfg) {
    this(cfg, -1, new int[0], TraceRecorder.NONE);
  }

  /**
   * Creates a simulator of {@code cfg} that records its trace into {@code trace} (header first). Only a
   * {@link SpecShaped} run has a trace the spec can follow; the trace of the simulator's own scheduler lists
   * the features the spec cannot follow in its header ({@code TraceFeature}), and {@code validate-trace}
   * refuses it by name.
   */
  public Simulator(SimConfig cfg, TraceRecorder trace) {
    this(cfg, -1, new int[0], trace);
  }

  private Simulator(SimConfig cfg, long viewStep, int[] viewRanks, TraceRecorder trace) {
    this.cfg = cfg;
    this.viewStep = viewStep;
    this.viewRanks = viewRanks;
    this.trace = trace;
  }

  boolean stopped() {
    return stops.stopped();
  }

  void report(Divergence d) {
    stops.report(d);
  }

  /**
   * Runs the simulation and returns its result.
   *
   * @throws IllegalStateException if a rank failed for a reason that is no invariant (a bug)
   */
  public SimResult run() {
    long start = System.nanoTime(); // reporting only
    RankEngine[] engines = setUp();
    List<Thread> threads = new ArrayList<>();
    for (RankEngine e : engines) {
      threads.add(rankThread(e, () -> runRank(e)));
    }
    threads.forEach(Thread::start);
    joinAll(threads);
    return finish(engines, start);
  }

  /**
   * Opens a step-by-step run of {@code cfg} on the same engine: the rank threads start and park at their
   * first lockstep point; see {@link SimulationRun}. Close it to end the threads.
   */
  public static SimulationRun open(SimConfig cfg) {
    return new SimulationRun(new Simulator(cfg));
  }

  /** Builds every rank (fabric, storage, recorders, engines); threads are not started. */
  RankEngine[] setUp() {
    Topology t = cfg.topology();
    int world = t.worldSize();
    GroupSource fabric = groups != null ? groups : GroupSource.of(new LocalFabric(cfg.collectiveTimeout()));
    this.stores = new RunStores(cfg, viewStep >= 0, this::hosts);
    StorageBackend[] storage = stores.open(world);
    if (faults != null) {
      storage = faults.wrapStores(cfg, storage);
    }
    RankEngine[] engines = new RankEngine[hosted < 0 ? world : 1];
    RankRecorder[] recorders = new RankRecorder[world];
    for (int r = 0; r < world; r++) {
      recorders[r] = new RankRecorder();
      if (digestLogs != null && hosts(r)) {
        recorders[r].log(DigestLog.create(digestLogs.resolve(DigestLog.fileName(r))));
      }
    }
    for (int r : viewRanks) {
      recorders[r].viewStep(viewStep);
    }
    this.recorders = recorders;
    if (trace.enabled()) {
      trace.header(SpecTraces.header(cfg));
    }
    // Every rank thread of the topology counts, also in a rank process (its peers run on the same machine).
    boolean inline = inlineRankThreads != null ? inlineRankThreads
        : inlineRankThreads(INLINE_RANK_THREADS, t.worldSize(), Runtime.getRuntime().availableProcessors());
    RankAssembly assembly = new RankAssembly(this, cfg, trace, inline, hosted >= 0, promptSeeds);
    for (int r = 0; r < world; r++) {
      if (hosts(r)) {
        engines[hosted < 0 ? r : 0] = assembly.build(r, t, fabric, storage[r], recorders);
      }
    }
    return engines;
  }

  /** Returns whether this process builds rank {@code r}. */
  private boolean hosts(int r) {
    return hosted < 0 || hosted == r;
  }

  static Thread rankThread(RankEngine e, Runnable body) {
    Thread th = new Thread(body, "rank-" + e.rank());
    th.setDaemon(true);
    return th;
  }

  /** After every rank thread has ended: the end-of-run checks, the report and the statistics. */
  private SimResult finish(RankEngine[] engines, long start) {
    Topology t = cfg.topology();
    RankRecorder[] recorders = this.recorders;
    closeData(engines);
    deleteTempStores();
    if (stops.crash() != null) {
      throw stops.crashError(cfg.seed());
    }
    long completed = Long.MAX_VALUE;
    for (RankEngine e : engines) {
      completed = Math.min(completed, e.stats().stepsRun());
    }
    List<Long> digests = new ArrayList<>();
    if (stops.first() == null) {
      Divergence end = DomainChecker.endOfRun(t, engines, recorders, completed, digests);
      if (end != null) {
        report(end);
      }
    }
    Divergence d = stops.first();
    if (d != null) {
      Divergence exact = viewStep < 0 ? ExactViews.replay(cfg, d) : null;
      d = exact != null ? exact : StopViews.withViews(d, engines);
    }
    if (cfg.logFile() != null && viewStep < 0) {
      List<EventLog> logs = new ArrayList<>();
      for (RankEngine e : engines) {
        logs.add(e.log());
      }
      EventLog.write(cfg.logFile(), logs);
    }
    List<String> quiescence = new ArrayList<>();
    if (d == null && cfg.drainSteps() > 0) {
      for (RankEngine e : engines) {
        for (String err : e.quiescenceErrors()) {
          quiescence.add("rank " + e.rank() + ": " + err);
        }
      }
    }
    SimStats stats = SimStats.of(cfg, t, engines, Math.min(completed, cfg.steps()));
    stats.storageDurable(cfg.storageDurable());
    stats.hostBufferOnly(cfg.hostBufferOnly());
    stores.addTo(stats);
    return new SimResult(cfg, stats, d, Math.min(completed, cfg.steps()), digests, quiescence,
        (System.nanoTime() - start) / 1_000_000);
  }

  static void closeData(RankEngine[] engines) {
    for (RankEngine e : engines) {
      e.controller().closeThreads();
      if (e.data() != null) {
        e.data().close();
      }
      e.recorder().closeLog();
    }
  }

  Divergence first() {
    return stops.first();
  }

  /** Page objects the stores this simulator opened held at the start. */
  long storagePagesAtStart() {
    return stores.pagesAtStart();
  }

  /** Pages the bounded L3 shards this simulator opened have evicted (0 when unbounded). */
  long storageEvictedPages() {
    return stores.evictedPages();
  }

  /** Removes the temporary folders of this run's file stores (every rank thread has ended). */
  void deleteTempStores() {
    if (stores != null) {
      stores.deleteTemp();
    }
  }

  Throwable crash() {
    return stops.crash();
  }

  /** Returns the abort threads started so far for the peers of ranks that stopped on their own. */
  List<Thread> helpers() {
    return stops.helpers();
  }

  RankRecorder[] recorders() {
    return recorders;
  }

  SimConfig config() {
    return cfg;
  }

  void runRank(RankEngine e) {
    stops.runRank(e, cfg.steps() + cfg.drainSteps());
  }

  private void joinAll(List<Thread> threads) {
    // Why bounded: after a failure, a rank can sit in a collective of a group whose peers are gone until
    // the fabric's timeout frees it; past twice that, it is interrupted.
    long limit = cfg.collectiveTimeout().toMillis() * 2 + 1000;
    for (Thread th : threads) {
      try {
        while (th.isAlive()) {
          th.join(limit);
          if (th.isAlive() && stopped()) {
            th.interrupt();
          }
        }
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Replays {@code cfg} (same seed, fresh storage, no log) recording ranks' views at step {@code step}; returns its recorders. */
  static RankRecorder[] replayViews(SimConfig cfg, long step, int rankA, int rankB, Divergence expect) {
    Simulator again = new Simulator(cfg, step, new int[] {rankA, rankB}, TraceRecorder.NONE);
    Divergence d;
    try {
      d = again.run().divergence();
    } catch (IllegalStateException e) {
      return null;
    }
    boolean same = d != null && d.step() == expect.step() && d.point().equals(expect.point())
        && d.rankA() == expect.rankA() && d.rankB() == expect.rankB();
    return same ? again.recorders : null; // another outcome: the views would not explain this divergence
  }
}
