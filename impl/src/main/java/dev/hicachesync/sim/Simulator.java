package dev.hicachesync.sim;

import dev.hicachesync.sim.datapath.DataPath;
import dev.hicachesync.sim.datapath.PromptSeeds;
import dev.hicachesync.sim.environment.EnvironmentFaults;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.environment.RankEnv;
import dev.hicachesync.sim.environment.SeededTiming;
import dev.hicachesync.sim.environment.Timing;
import dev.hicachesync.sim.spec.SpecTraces;
import dev.hicachesync.sim.workload.SyntheticWorkload;
import dev.hicachesync.sim.workload.Workload;
import dev.hicachesync.api.Seam;
import dev.hicachesync.api.TraceInstrumentation;
import dev.hicachesync.collective.CollectiveException;
import dev.hicachesync.collective.LocalFabric;
import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.controller.CacheController;
import dev.hicachesync.controller.ControllerThreads;
import dev.hicachesync.storage.FileStorageBackend;
import dev.hicachesync.storage.LruStorageBackend;
import dev.hicachesync.storage.MemoryStorageBackend;
import dev.hicachesync.storage.StorageBackend;
import dev.hicachesync.sync.GroupRegistry;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.sync.SyncGroups;
import dev.hicachesync.sync.SyncLayer;
import dev.hicachesync.sync.SyncObserver;
import dev.hicachesync.topology.RankCoord;
import dev.hicachesync.topology.Topology;
import dev.hicachesync.trace.TraceHeader;
import dev.hicachesync.trace.TraceRecorder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

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
   * against 3.3 s (docs/performance.md). With a spare processor per rank the threads cost little and keep
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
  private final AtomicReference<Divergence> first = new AtomicReference<>();
  private final AtomicReference<Throwable> crash = new AtomicReference<>();
  /** In a replay for the report: the step whose readable views ranks {@code viewRanks} record; -1 otherwise. */
  private final long viewStep;
  private final int[] viewRanks;
  private RankRecorder[] recorders;
  /** Each rank's L3 store, set by {@link #setUp} (evictions are summed into the statistics at the end). */
  private StorageBackend[] stores;
  /** The collective errors of the peers of a rank that crashed (each names the rank it happened on). */
  private final List<String> peerErrors = java.util.Collections.synchronizedList(new ArrayList<>());
  /** Temporary folders of file stores the run made itself (no --storage-dir): removed when it ends. */
  private final List<Path> tempStores = new ArrayList<>();
  /** Page objects the file stores held when opened (a reused --storage-dir); 0 for fresh stores. */
  private long storagePagesAtStart;
  /** This run's file stores (their fsync counts go into the statistics at the end). */
  private final List<FileStorageBackend> fileStores = java.util.Collections.synchronizedList(new ArrayList<>());
  /** Where the run's trace goes ({@link TraceRecorder#NONE}: nothing is wrapped or recorded). */
  private final TraceRecorder trace;
  /** The abort threads {@link #poison} started, for {@link SimulationRun#close} to join. */
  final List<Thread> helpers = java.util.Collections.synchronizedList(new ArrayList<>());

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
    return first.get() != null || crash.get() != null;
  }

  void report(Divergence d) {
    first.compareAndSet(null, d);
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
    StorageBackend[] storage = storage(world);
    this.stores = storage;
    if (faults != null) {
      storage = faults.wrapStores(cfg, storage);
    }
    RankEngine[] engines = new RankEngine[hosted < 0 ? world : 1];
    RankRecorder[] recorders = new RankRecorder[world];
    for (int r = 0; r < world; r++) {
      recorders[r] = new RankRecorder();
      if (digestLogs != null && hosts(r)) {
        recorders[r].log = DigestLog.create(digestLogs.resolve(DigestLog.fileName(r)));
      }
    }
    for (int r : viewRanks) {
      recorders[r].viewStep = viewStep;
    }
    this.recorders = recorders;
    if (trace.enabled()) {
      trace.header(SpecTraces.header(cfg));
    }
    for (int r = 0; r < world; r++) {
      if (hosts(r)) {
        engines[hosted < 0 ? r : 0] = build(r, t, fabric, storage[r], recorders);
      }
    }
    return engines;
  }

  /** Returns whether this process builds rank {@code r}. */
  private boolean hosts(int r) {
    return hosted < 0 || hosted == r;
  }

  static Thread rankThread(RankEngine e, Runnable body) {
    Thread th = new Thread(body, "rank-" + e.rank);
    th.setDaemon(true);
    return th;
  }

  /** After every rank thread has ended: the end-of-run checks, the report and the statistics. */
  private SimResult finish(RankEngine[] engines, long start) {
    Topology t = cfg.topology();
    RankRecorder[] recorders = this.recorders;
    closeData(engines);
    deleteTempStores();
    if (crash.get() != null) {
      String peers;
      synchronized (peerErrors) {
        peers = peerErrors.isEmpty() ? "" : "; " + peerErrors.size() + " peer(s) stopped by the collective error, "
            + peerErrors.stream().sorted().findFirst().orElse("").lines().findFirst().orElse("");
      }
      throw new IllegalStateException("simulation failed on seed " + cfg.seed() + ": " + crash.get() + peers,
          crash.get());
    }
    long completed = Long.MAX_VALUE;
    for (RankEngine e : engines) {
      completed = Math.min(completed, e.stats.stepsRun);
    }
    List<Long> digests = new ArrayList<>();
    if (first.get() == null) {
      finalChecks(t, engines, recorders, completed, digests);
    }
    Divergence d = first.get();
    if (d != null) {
      Divergence exact = viewStep < 0 ? ExactViews.replay(cfg, d) : null;
      d = exact != null ? exact : withViews(d, engines);
    }
    if (cfg.logFile() != null && viewStep < 0) {
      List<EventLog> logs = new ArrayList<>();
      for (RankEngine e : engines) {
        logs.add(e.log);
      }
      EventLog.write(cfg.logFile(), logs);
    }
    List<String> quiescence = new ArrayList<>();
    if (d == null && cfg.drainSteps() > 0) {
      for (RankEngine e : engines) {
        for (String err : e.quiescenceErrors()) {
          quiescence.add("rank " + e.rank + ": " + err);
        }
      }
    }
    SimStats stats = stats(t, engines, Math.min(completed, cfg.steps()));
    stats.storagePagesAtStart = storagePagesAtStart;
    stats.storageDurable = cfg.storageDurable();
    stats.hostBufferOnly = cfg.hostBufferOnly();
    for (FileStorageBackend f : fileStores) {
      stats.storageFilesForced += f.filesForced();
      stats.storageFoldersForced += f.foldersForced();
    }
    if (cfg.storageBounded()) {
      stats.storageCapacityPages = cfg.storagePages();
      for (StorageBackend b : stores) {
        stats.storageEvictedPages += ((LruStorageBackend) b).evicted();
      }
    }
    return new SimResult(cfg, stats, d, Math.min(completed, cfg.steps()), digests, quiescence,
        (System.nanoTime() - start) / 1_000_000);
  }

  private RankEngine build(int r, Topology t, GroupSource fabric, StorageBackend storage,
      RankRecorder[] recorders) {
    // Every rank thread of the topology counts, also in a rank process (its peers run on the same machine).
    boolean inline = inlineRankThreads != null ? inlineRankThreads
        : inlineRankThreads(INLINE_RANK_THREADS, t.worldSize(), Runtime.getRuntime().availableProcessors());
    RankCoord c = t.coords(r);
    PipeChannel fromPrev = null;
    PipeChannel toNext = null;
    if (c.pp() > 0) {
      fromPrev = fabric.channel("pp", t.rankOf(new RankCoord(c.dp(), c.cp(), c.tp(), c.pp() - 1)), r);
    }
    if (c.pp() < t.pp() - 1) {
      toNext = fabric.channel("pp", r, t.rankOf(new RankCoord(c.dp(), c.cp(), c.tp(), c.pp() + 1)));
    }
    ProcessGroup sched = fabric.group("sched", t.cpTpGroup(r), r);
    ProcessGroup attnTp = fabric.group("attn_tp", t.attnTpGroup(r), r);
    ProcessGroup attnCp = fabric.group("attn_cp", t.attnCpGroup(r), r);
    RankEngine[] self = new RankEngine[1];
    SyncGroups schedGroups = new SyncGroups(attnTp, attnCp, sched, null, fromPrev, toNext);
    SyncGroups prefetchGroups = new SyncGroups(fabric.group("pf_attn_tp", t.attnTpGroup(r), r),
        fabric.group("pf_attn_cp", t.attnCpGroup(r), r), fabric.group("pf_cp_tp", t.cpTpGroup(r), r),
        t.pp() > 1 ? fabric.group("pf_pp", t.ppGroup(r), r) : null, null, null);
    // Version unified's completion sync (#27010) on groups of its own, made after the prefetch ones
    // (GroupRegistry); the earlier versions have no such thread and make none.
    SyncGroups completionGroups = cfg.version() != ProtocolVersion.UNIFIED ? null
        : new SyncGroups(fabric.group(GroupRegistry.PFC_ATTN_TP, t.attnTpGroup(r), r),
            fabric.group(GroupRegistry.PFC_ATTN_CP, t.attnCpGroup(r), r),
            fabric.group(GroupRegistry.PFC_CP_TP, t.cpTpGroup(r), r),
            t.pp() > 1 ? fabric.group(GroupRegistry.PFC_PP, t.ppGroup(r), r) : null, null, null);
    // The API's own trace instrumentation (null when nothing is recorded: no handle is wrapped).
    TraceInstrumentation traced = Seam.instrument(cfg.version(), schedGroups, prefetchGroups, trace, recorders[r],
        cfg.pageSize(), () -> self[0].stats.stepsRun);
    if (traced != null) {
      schedGroups = traced.sched();
      prefetchGroups = traced.prefetch();
      if (completionGroups != null) {
        completionGroups = traced.completion(cfg.version(), completionGroups);
      }
    }
    // RECV shares the scheduler's group (as SGLang's request broadcast shares the TP CPU group), so a rank
    // that skips a sync point meets the others' next collective there: a mismatch, not a silent hang.
    ProcessGroup recv = t.pp() == 1 ? sched : fabric.group("sched", t.syncDomain(r), r);
    Timing.Factory tf = cfg.timing() != null ? cfg.timing() : SeededTiming.factory();
    if (cfg.specShaped() != null) {
      tf = SpecTraces.copiesEndAfterTheStep(tf);
    }
    // Read failures on stage 0 only: later stages block on their own reads (see the report's limits).
    RankEnv env = new RankEnv(r, tf.create(cfg.seed(), r, c.pp() == 0 ? cfg.readFailure() : 0.0));
    RankRecorder rec = recorders[r];
    EventLog log = cfg.logFile() == null ? null : new EventLog(r, env);
    SyncObserver reductions = log == null ? SyncObserver.NONE : log;
    // The rank's prefetch, I/O, backup threads, stepped: they do the work at the virtual times env decides
    // (same reports as inline; inlineRankThreads runs that work on the rank's thread, for speed).
    ControllerThreads threads = inline ? null : ControllerThreads.stepped("rank" + r);
    CacheController controller = new CacheController(cfg.controllerConfig(), Fault.controllerFaults(cfg.faults(), r, c.pp()),
        threads == null ? env : threads.around(env),
        new SyncLayer(cfg.version(), schedGroups, reductions),
        new SyncLayer(cfg.version(), prefetchGroups, reductions), traced != null ? traced.observer() : rec, storage,
        "tp" + t.tpRank(r) + "pp" + c.pp());
    if (Fault.runtimeAttach(cfg.faults())) {
      controller.detachStorageAtStart(); // attached at runtime, at Fault.ATTACH_STEP
    }
    if (cfg.hostBufferOnly()) {
      controller.parkStorageHits(); // --hicache-host-memory-mode buffer_only (#34798)
    }
    if (completionGroups != null) {
      controller.useCompletionSync(new SyncLayer(cfg.version(), completionGroups, reductions));
    }
    if (threads != null) {
      controller.attachThreads(threads);
    }
    rec.attach(controller);
    DataPath data = cfg.data().on()
        ? new DataPath(cfg.data(), cfg.devicePages(), cfg.hostPages(), env.clock(), r, promptSeeds) : null;
    if (data != null) {
      controller.attachData(data);
    }
    List<Integer> domain = t.syncDomain(r);
    DomainChecker checker = null;
    // A rank process cannot read its peers' recorders: the launcher compares the gathered digest logs.
    if (domain.get(0) == r && domain.size() > 1 && hosted < 0) {
      int[] ranks = domain.stream().mapToInt(Integer::intValue).toArray();
      RankRecorder[] members = new RankRecorder[ranks.length];
      for (int i = 0; i < ranks.length; i++) {
        members[i] = recorders[ranks[i]];
      }
      checker = new DomainChecker(ranks, members);
    }
    Workload.Factory wf = cfg.workload() != null ? cfg.workload() : SyntheticWorkload.factory(cfg.pageSize());
    boolean unifiedSpec = cfg.specShaped() != null && cfg.version() == ProtocolVersion.UNIFIED;
    LoopShape shape = cfg.specShaped() == null ? LoopShape.simulator(cfg.maxRunning())
        : unifiedSpec ? LoopShape.specUnified()
        : cfg.specShaped().finishInStep() ? LoopShape.specInStep() : LoopShape.spec();
    if (unifiedSpec && storage != null) { // HiCacheUnified writes nothing to storage: what S7 finds is seeded
      cfg.specShaped().seedStorage(storage, "tp" + t.tpRank(r) + "pp" + c.pp(), r, cfg.seed(), cfg.pageSize());
    }
    RankEngine engine = new RankEngine(r, this, cfg, shape, Seam.wrap(controller, shape.writeThroughAtFinish(),
        traced), controller, env, rec, wf.create(cfg.seed(), c.dp()), recv, checker, log);
    engine.handles.addAll(List.of(sched, schedGroups.attnTp(), schedGroups.attnCp(), prefetchGroups.attnTp(),
        prefetchGroups.attnCp(), prefetchGroups.cpTp()));
    if (prefetchGroups.pp() != null) {
      engine.handles.add(prefetchGroups.pp());
    }
    if (completionGroups != null) {
      engine.handles.addAll(List.of(completionGroups.attnTp(), completionGroups.attnCp(), completionGroups.cpTp()));
      if (completionGroups.pp() != null) {
        engine.handles.add(completionGroups.pp());
      }
    }
    if (recv != sched) {
      engine.handles.add(recv);
    }
    engine.toNext = toNext;
    engine.data = data;
    self[0] = engine;
    ProcessGroup tracedRecv = engine.api.traceRecv(recv);
    if (cfg.specShaped() == null && traced != null) {
      engine.intake = new WorkloadIntake(engine, cfg.steps(), tracedRecv);
    }
    if (cfg.specShaped() != null) { // the same loop; RECV carries the spec's request index instead
      engine.intake = new SpecIntake(engine, cfg.specShaped(), tracedRecv, recv,
          traced != null ? traced.recorder() : null, cfg.pageSize());
      // No victim order of its own: the spec evicts LRU on the replicated clock too, so the
      // tree's own LRU order is the spec's.
    }
    return engine;
  }

  static void closeData(RankEngine[] engines) {
    for (RankEngine e : engines) {
      e.controller.closeThreads();
      if (e.data != null) {
        e.data.close();
      }
      e.recorder.closeLog();
    }
  }

  Divergence first() {
    return first.get();
  }

  /** Page objects the stores this simulator opened held at the start. */
  long storagePagesAtStart() {
    return storagePagesAtStart;
  }

  /** Pages the bounded L3 shards this simulator opened have evicted (0 when unbounded). */
  long storageEvictedPages() {
    long n = 0;
    if (cfg.storageBounded()) {
      for (StorageBackend b : stores) {
        n += b == null ? 0 : ((LruStorageBackend) b).evicted();
      }
    }
    return n;
  }

  Throwable crash() {
    return crash.get();
  }

  RankRecorder[] recorders() {
    return recorders;
  }

  SimConfig config() {
    return cfg;
  }

  void runRank(RankEngine e) {
    try {
      for (long s = 0; s < cfg.steps() + cfg.drainSteps(); s++) {
        if (!e.step(s)) {
          return;
        }
      }
    } catch (SimulationRun.Halted ex) {
      // a step-by-step run was closed while this rank was parked
    } catch (CollectiveException ex) {
      if (crash.get() != null) { // a peer that failed on its own told this rank so through the ABORT call
        String m = String.valueOf(ex.getMessage());
        peerErrors.add(m.startsWith("rank " + e.rank + ":") ? m : "rank " + e.rank + ": " + m);
      }
      report(new Divergence(e.stats.stepsRun, e.where, List.of(Invariant.CollectiveMatching), e.rank, -1,
          ex.getMessage(), ""));
    } catch (InvariantViolation ex) {
      report(new Divergence(e.stats.stepsRun, e.where, List.of(ex.invariant()), e.rank, -1,
          ex.getMessage(), ""));
      poison(e);
    } catch (RuntimeException | Error ex) {
      if (!stopped()) {
        crash.compareAndSet(null, ex);
      }
      poison(e);
    }
  }

  /**
   * Frees the peers of a rank that stopped on its own (a local violation or a crash) without waiting for
   * the fabric's timeout: an {@code ABORT} call on each of its groups mismatches whatever call the peers
   * wait in (or make next), and a poison message tells the next pipeline stage. The helper threads are
   * daemons; those whose group nobody reaches again end at the timeout, unobserved.
   */
  private void poison(RankEngine e) {
    for (ProcessGroup g : e.handles) {
      if (g.size() > 1) {
        Thread th = new Thread(() -> {
          try {
            g.barrier("ABORT");
          } catch (RuntimeException ignored) {
            // the mismatch this call exists to cause, or the timeout of a group nobody uses any more
          }
        }, "abort-" + e.rank + "-" + g.name());
        th.setDaemon(true);
        helpers.add(th);
        th.start();
      }
    }
    if (e.toNext != null) {
      e.toNext.send(new long[] {-1});
    }
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

  /** Compares the last steps the leaders could not, and the canonical tree digests at the end. */
  private void finalChecks(Topology t, RankEngine[] engines, RankRecorder[] recorders, long completed,
      List<Long> digests) {
    for (List<Integer> domain : t.groups(dev.hicachesync.topology.GroupKind.SYNC_DOMAIN)) {
      int[] ranks = domain.stream().mapToInt(Integer::intValue).toArray();
      RankRecorder[] members = new RankRecorder[ranks.length];
      for (int i = 0; i < ranks.length; i++) {
        members[i] = recorders[ranks[i]];
      }
      DomainChecker checker = new DomainChecker(ranks, members);
      for (long s = Math.max(0, completed - 2); s < completed; s++) {
        Divergence d = checker.check(s);
        if (d != null) {
          report(d);
          return;
        }
      }
      long ref = engines[ranks[0]].controller.tree().digest().hash();
      for (int i = 1; i < ranks.length; i++) {
        long other = engines[ranks[i]].controller.tree().digest().hash();
        if (other != ref) {
          report(new Divergence(completed, "tree digest at the end", List.of(Invariant.TreeAgreement),
              ranks[0], ranks[i], Long.toHexString(ref), Long.toHexString(other)));
          return;
        }
      }
      digests.add(ref);
    }
  }

  /** Adds both ranks' state after the stop (every thread has been joined): queues, pools and the first tree node where they differ. */
  private Divergence withViews(Divergence d, RankEngine[] engines) {
    if (d.rankB() < 0) {
      return d;
    }
    CacheController a = engines[d.rankA()].controller;
    CacheController b = engines[d.rankB()].controller;
    List<String> ta = a.tree().describe();
    List<String> tb = b.tree().describe();
    String na = "(same)";
    String nb = "(same)";
    for (int i = 0; i < Math.max(ta.size(), tb.size()); i++) {
      String x = i < ta.size() ? ta.get(i) : "(no node)";
      String y = i < tb.size() ? tb.get(i) : "(no node)";
      if (!x.equals(y)) {
        na = x;
        nb = y;
        break;
      }
    }
    return d.withViews(d.viewA() + "\n" + state(a, na), d.viewB() + "\n" + state(b, nb));
  }

  private static String state(CacheController c, String node) {
    return String.format("after the stop: %s%nfirst differing tree node: %s", queues(c),
        node.equals("(same)") ? "none now (the difference was transient)" : node);
  }

  /** Returns a rank's tree digest, queue lengths, free pages and ongoing prefetches, on one line. */
  static String queues(CacheController c) {
    int[] q = c.queueSizes();
    return String.format("%s; queues write=%d load=%d revoke=%d backup=%d release=%d; "
            + "free device=%d host=%d; ongoing prefetches=%d",
        c.tree().digest(), q[0], q[1], q[2], q[3], q[4], c.freeDevicePages(), c.freeHostPages(),
        c.ongoingPrefetches().size());
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

  SimStats stats(Topology t, RankEngine[] engines, long completed) {
    SimStats s = new SimStats();
    s.steps = completed;
    s.ranks = engines.length;
    s.pageBytes = cfg.controllerConfig().pageBytes();
    if (cfg.data().on()) {
      // Real bytes: the page counts are multiplied by the data path's page size.
      s.pageBytes = cfg.data().pageBytes();
      s.deviceTier = engines[0].data.tierName();
      s.hostLayout = String.format("%s, page %d B (%d layers x %d B)", cfg.data().hostLayout().label(),
          cfg.data().pageBytes(), cfg.data().layers(), cfg.data().layerBytes());
    }
    for (RankEngine e : engines) {
      if (e.data != null) {
        s.dataBytes += e.data.movedBytes();
        s.checkedPages += e.data.checkedPages();
      }
      if (t.syncDomain(e.rank).get(0) == e.rank) {
        s.addDomain(e.stats, e.controller.stats());
        s.domainWorkloads.add(e.workload);
      }
      s.addRank(e.stats, e.controller.stats(), e.controller.collectives());
    }
    return s;
  }

  /**
   * Returns each rank's L3 (nulls when storage is off).
   *
   * <p>Unbounded: one store shared by every rank, as a real L3 is; nothing is ever deleted, so whether a
   * rank sees a peer's object depends only on whether the peer wrote it, which for ranks of one sync
   * domain the lockstep collectives order (writes run before RECV).
   *
   * <p>Bounded ({@code storagePages}): every rank gets its own shard of that many pages, an {@link
   * LruStorageBackend} over its own memory map or its own folder {@code rank-N}. Why not one shared
   * bounded store: evictions would then happen in the order rank threads reach the store, so which pages
   * a rank finds (S7's local hit, a read that fails) would depend on thread timing, and a seed would not
   * replay. A shard is touched only by its rank's thread, in that rank's event order, and its LRU clock
   * is that call order, so eviction is a pure function of (seed, rank) like the rest of the rank's
   * environment. Agreement does not rest on the shards agreeing: S7 MIN-reduces the local hits and S5 the
   * pages read, so a page one rank evicted and another kept is read by neither (an evicted page that
   * was already counted in S7 is a failed read, which the protocol handles). The capacity is per rank,
   * as SGLang sizes its host tier ({@code --hicache-size} is per rank); peers no longer see each other's
   * objects, which matters only with {@code --dp > 1}, where replicas hit each other's pages in the
   * shared store (in an order the threads decide).
   */
  private StorageBackend[] storage(int world) {
    StorageBackend[] out = new StorageBackend[world];
    if (cfg.storage() == StorageMode.OFF) {
      return out;
    }
    if (!cfg.storageBounded()) {
      Arrays.fill(out, open(cfg.storageDir() != null && viewStep < 0 ? cfg.storageDir() : null));
      return out;
    }
    // A replay (viewStep >= 0) starts from empty shards in temporary folders, as the run it repeats did.
    Path root = cfg.storageDir() != null && viewStep < 0 ? cfg.storageDir() : null;
    for (int r = 0; r < world; r++) {
      if (!hosts(r)) {
        continue;
      }
      out[r] = new LruStorageBackend(open(root == null ? null : root.resolve("rank-" + r)), cfg.storagePages());
    }
    return out;
  }

  /**
   * Returns a fresh memory store, or a file store under {@code dir} (null: a new temporary folder, removed
   * when the run ends; a folder the user named is kept, and the pages it already held are counted).
   */
  private StorageBackend open(Path dir) {
    if (cfg.storage() == StorageMode.MEMORY) {
      return new MemoryStorageBackend();
    }
    Path folder = dir;
    if (folder == null) {
      try {
        folder = Files.createTempDirectory("hicache-sim-");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      synchronized (tempStores) {
        tempStores.add(folder);
      }
    }
    FileStorageBackend store = new FileStorageBackend(folder, cfg.storageDurable());
    storagePagesAtStart += store.pagesAtOpen();
    fileStores.add(store);
    return store;
  }

  /** Removes the temporary folders of this run's file stores (every rank thread has ended). */
  void deleteTempStores() {
    synchronized (tempStores) {
      for (Path p : tempStores) {
        StoreFolders.deleteTree(p);
      }
      tempStores.clear();
    }
  }
}
