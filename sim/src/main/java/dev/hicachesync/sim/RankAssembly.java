package dev.hicachesync.sim;

import dev.hicachesync.api.internal.Seam;
import dev.hicachesync.api.internal.TraceInstrumentation;
import dev.hicachesync.collective.AsyncAllReduce;
import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.controller.CacheController;
import dev.hicachesync.controller.ControllerConfig;
import dev.hicachesync.controller.ControllerThreads;
import dev.hicachesync.controller.SidecarFaults;
import dev.hicachesync.sim.datapath.DataPath;
import dev.hicachesync.sim.datapath.PromptSeeds;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.environment.FaultParts;
import dev.hicachesync.sim.environment.PfRaiseStorage;
import dev.hicachesync.sim.environment.RankEnv;
import dev.hicachesync.sim.environment.SeededTiming;
import dev.hicachesync.sim.environment.Timing;
import dev.hicachesync.sim.spec.SpecTraces;
import dev.hicachesync.sim.workload.SyntheticWorkload;
import dev.hicachesync.sim.workload.Workload;
import dev.hicachesync.storage.StorageBackend;
import dev.hicachesync.sync.GroupRegistry;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.sync.SyncGroups;
import dev.hicachesync.sync.SyncLayer;
import dev.hicachesync.sync.SyncObserver;
import dev.hicachesync.topology.RankCoord;
import dev.hicachesync.topology.Topology;
import dev.hicachesync.trace.TraceRecorder;
import java.util.List;

/**
 * Builds one rank of a simulation: its process groups (scheduler, prefetch and, in {@code unified}, the
 * completion sync's, each on groups of its own), its sync layers, the controller with its seeded environment,
 * faults, observers and threads, the API handle the scheduler loop calls, its data path and, on a sync
 * domain's first rank, the checker of the domain's digests; then the {@link RankEngine} that steps it.
 * The groups are made in the same order on every rank, so they pair up however the ranks are hosted.
 */
final class RankAssembly {
  private final Simulator sim;
  private final SimConfig cfg;
  private final TraceRecorder trace;
  /** Whether the stepped controller work runs on the rank threads ({@link Simulator#inlineRankThreads}). */
  private final boolean inline;
  /** This process hosts one rank of a world of processes: its peers' recorders are not here. */
  private final boolean hostedProcess;
  private final PromptSeeds promptSeeds;
  /** Every rank's request source: one factory per run, so the synthetic one can share its streams. */
  private final Workload.Factory workloads;

  RankAssembly(Simulator sim, SimConfig cfg, TraceRecorder trace, boolean inline, boolean hostedProcess,
      PromptSeeds promptSeeds) {
    this.sim = sim;
    this.cfg = cfg;
    this.trace = trace;
    this.inline = inline;
    this.hostedProcess = hostedProcess;
    this.promptSeeds = promptSeeds;
    this.workloads = cfg.workload() != null ? cfg.workload() : SyntheticWorkload.factory(cfg.pageSize());
  }

  /**
   * Whether the prefetch thread's S7 reduces over the pp group too ({@code prefetch_thread_func}'s MIN across
   * stages, #27010's fix): with stages, unless fault {@link Fault#PP_STAGE_LOCAL_PREFETCH_HITS} (B7) leaves it out.
   */
  private boolean prefetchHitsAcrossStages(Topology t) {
    return t.pp() > 1 && !cfg.faults().contains(Fault.PP_STAGE_LOCAL_PREFETCH_HITS);
  }

  /** Builds rank {@code r}: its groups, sync layers, controller, API handle, data path, checker and engine. */
  RankEngine build(int r, Topology t, GroupSource fabric, StorageBackend storage, RankRecorder[] recorders) {
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
    // Faults PP_STAGE_LOCAL_SYNC (B6), PP_DRAIN_STAGE_LOCAL (unified) and PP_WORLD_ALLREDUCE (B19): the
    // scheduler's syncs without the forward.
    SyncGroups schedGroups = WorldSyncGate.schedulerGroups(cfg.faults(), attnTp, attnCp, sched, fromPrev, toNext,
        () -> fabric.group("world", t.syncDomain(r), r));
    // Fault SHARED_PREFETCH_GROUPS (knob shared_group): the prefetch thread on the scheduler's group objects.
    SyncGroups prefetchGroups = cfg.faults().contains(Fault.SHARED_PREFETCH_GROUPS)
        ? new SyncGroups(attnTp, attnCp, sched, null, null, null)
        : new SyncGroups(fabric.group("pf_attn_tp", t.attnTpGroup(r), r),
            fabric.group("pf_attn_cp", t.attnCpGroup(r), r), fabric.group("pf_cp_tp", t.cpTpGroup(r), r),
            prefetchHitsAcrossStages(t) && PpPrefetchTicketWiring.s7SpansStages(cfg.faults(), t)
                ? PfQueryStageMask.wrap(cfg.faults(), c.pp(), fabric.group("pf_pp", t.ppGroup(r), r)) : null,
            null, null);
    // Version unified's completion sync (#27010) on groups of its own, made after the prefetch ones
    // (GroupRegistry); the earlier versions have no such thread and make none.
    // Fault SHARED_COMPLETION_GROUPS (knob sync_shared_group): the completion sync on the scheduler's group objects.
    SyncGroups completionGroups = cfg.version() != ProtocolVersion.UNIFIED ? null
        : cfg.faults().contains(Fault.SHARED_COMPLETION_GROUPS) ? new SyncGroups(attnTp, attnCp, sched, null, null, null)
        : new SyncGroups(fabric.group(GroupRegistry.PFC_ATTN_TP, t.attnTpGroup(r), r),
            fabric.group(GroupRegistry.PFC_ATTN_CP, t.attnCpGroup(r), r),
            fabric.group(GroupRegistry.PFC_CP_TP, t.cpTpGroup(r), r),
            PpPrefetchTicketWiring.completionSpansStages(cfg.faults(), t)
                ? fabric.group(GroupRegistry.PFC_PP, t.ppGroup(r), r) : null, null, null);
    // The API's own trace instrumentation (null when nothing is recorded: no handle is wrapped).
    TraceInstrumentation traced = Seam.instrument(cfg.version(), schedGroups, prefetchGroups, trace, recorders[r],
        cfg.pageSize(), () -> self[0].stats().stepsRun());
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
    CacheController controller = new CacheController(controllerConfig(r), FaultParts.controllerFaults(cfg.faults(), r, c.pp()),
        threads == null ? env : threads.around(env),
        new SyncLayer(cfg.version(), schedGroups, reductions),
        new SyncLayer(cfg.version(), prefetchGroups, reductions), traced != null ? traced.observer() : rec,
        PfRaiseStorage.wrap(cfg.faults(), env.storageSeenBy(storage), env::storageHitQueryRaises),
        "tp" + t.tpRank(r) + "pp" + c.pp());
    if (FaultParts.runtimeAttach(cfg.faults())) {
      controller.detachStorageAtStart(); // attached at runtime, at Fault.ATTACH_STEP
    }
    SidecarFaults sidecar = FaultParts.sidecarFaults(cfg.faults(), r);
    if (sidecar != null) {
      controller.attachSidecarPool(sidecar); // knob sidecar: this rank's KV pool has an indexer pool
    }
    if (cfg.hostBufferOnly()) {
      controller.parkStorageHits(); // --hicache-host-memory-mode buffer_only (#34798)
    }
    if (cfg.faults().contains(Fault.BACKUP_AT_ADMISSION)) {
      controller.backupAtInsert(); // knob backup: write_backup_storage at each admission
    }
    if (cfg.faults().contains(Fault.STAGE_EXTRA_POOLS) // stage 0's extra host pool; pad_pools: every stage's entry
        && (c.pp() == 0 || cfg.faults().contains(Fault.PADDED_POOL_VECTORS))) {
      controller.extraHostMemReleaseQueues(1);
    }
    boolean stageLocal = cfg.faults().contains(Fault.STAGING_FREED_ON_BACKUP_THREAD);
    if (stageLocal || cfg.faults().contains(Fault.BUFFER_WRITE_STAGING)) {
      controller.stageWritesInHostBuffer(stageLocal); // knob buffer_only's write staging (bug STAGE_LOCAL)
    }
    if (completionGroups != null) {
      controller.useCompletionSync(new SyncLayer(cfg.version(), completionGroups, reductions));
    }
    PpPrefetchTicketWiring.wire(cfg.faults(), t, r, fabric, controller); // Fault PP_PREFETCH_TICKETS (#36700)
    // Version pipelined's asynchronous S123 (#39903) on groups of its own (the spec's channel "async").
    ProcessGroup async = cfg.version() != ProtocolVersion.PIPELINED ? null
        : fabric.group(GroupRegistry.ASYNC_CP_TP, t.cpTpGroup(r), r);
    if (async != null) {
      controller.useAsyncEventCheck(new SyncLayer(cfg.version(), new SyncGroups(null, null, async, null, null, null)),
          new AsyncAllReduce("rank" + r), FaultParts.pipelinedFaults(cfg.faults(), r));
    }
    if (threads != null) {
      controller.attachThreads(threads);
    }
    rec.attach(controller);
    DataPath data = cfg.data().on()
        ? new DataPath(cfg.data(), cfg.devicePages(), controllerConfig(r).hostPages(), env.clock(), r, promptSeeds)
        : null;
    if (data != null) {
      controller.attachData(data);
    }
    List<Integer> domain = t.syncDomain(r);
    DomainChecker checker = null;
    // A rank process cannot read its peers' recorders: the launcher compares the gathered digest logs.
    if (domain.get(0) == r && domain.size() > 1 && !hostedProcess) {
      int[] ranks = domain.stream().mapToInt(Integer::intValue).toArray();
      RankRecorder[] members = new RankRecorder[ranks.length];
      for (int i = 0; i < ranks.length; i++) {
        members[i] = recorders[ranks[i]];
      }
      checker = new DomainChecker(t, ranks, members);
    }
    boolean unifiedSpec = cfg.specShaped() != null && cfg.version() == ProtocolVersion.UNIFIED;
    LoopShape shape = cfg.specShaped() == null ? LoopShape.simulator(cfg.maxRunning())
        : unifiedSpec ? LoopShape.specUnified()
        : cfg.specShaped().finishInStep() ? LoopShape.specInStep() : LoopShape.spec();
    if (unifiedSpec && storage != null) { // HiCacheUnified writes nothing to storage: what S7 finds is seeded
      cfg.specShaped().seedStorage(storage, "tp" + t.tpRank(r) + "pp" + c.pp(), r, cfg.seed(), cfg.pageSize());
    }
    RankEngine engine = new RankEngine(r, sim, cfg, shape, Seam.wrap(controller, shape.writeThroughAtFinish(),
        traced), controller, env, rec, workloads.create(cfg.seed(), c.dp()), recv, checker, log);
    engine.handles().addAll(List.of(sched, schedGroups.attnTp(), schedGroups.attnCp(), prefetchGroups.attnTp(),
        prefetchGroups.attnCp(), prefetchGroups.cpTp()));
    if (prefetchGroups.pp() != null) {
      engine.handles().add(prefetchGroups.pp());
    }
    if (completionGroups != null) {
      engine.handles().addAll(List.of(completionGroups.attnTp(), completionGroups.attnCp(), completionGroups.cpTp()));
      if (completionGroups.pp() != null) {
        engine.handles().add(completionGroups.pp());
      }
    }
    if (async != null) {
      engine.handles().add(async);
    }
    if (recv != sched) {
      engine.handles().add(recv);
    }
    engine.toNext(toNext);
    engine.data(data);
    self[0] = engine;
    ProcessGroup tracedRecv = engine.api().traceRecv(recv);
    if (cfg.specShaped() == null && traced != null) {
      engine.intake(new WorkloadIntake(engine, cfg.steps(), tracedRecv));
    }
    if (cfg.specShaped() != null) { // the same loop; RECV carries the spec's request index instead
      engine.intake(new SpecIntake(engine, cfg.specShaped(), tracedRecv, recv,
          traced != null ? traced.recorder() : null, cfg.pageSize(), env.comparesStepAtNextRecv() ? checker : null));
      // No victim order of its own: the spec evicts LRU on the replicated clock too, so the
      // tree's own LRU order is the spec's.
    }
    PdBootstrapQueue.wire(cfg, r, fabric, engine); // Fault PD_PREFILL_BOOTSTRAP: RECV's requests wait to bootstrap
    return engine;
  }

  /**
   * Rank {@code r}'s controller configuration: the run's, except under {@link Fault#LARGER_HOST_POOL_ON_RANK0},
   * where rank 0's host pool has one page more than agreed, and {@link Fault#LARGER_DEVICE_POOL_ON_LATER_STAGES},
   * where a later stage's device pool has twice the pages agreed.
   */
  private ControllerConfig controllerConfig(int r) {
    ControllerConfig c = cfg.controllerConfig();
    if (cfg.faults().contains(Fault.LARGER_DEVICE_POOL_ON_LATER_STAGES) && cfg.topology().coords(r).pp() > 0) {
      c = new ControllerConfig(c.pageSize(), 2 * c.devicePages(), c.hostPages(), c.writePolicy(),
          c.prefetchPolicy(), c.storage(), c.prefetchThresholdTokens(), c.loadBackThresholdTokens(), c.ioBatchPages(),
          c.timeoutBaseTicks(), c.timeoutTicksPer1024(), c.pageBytes());
    }
    if (r != 0 || !cfg.faults().contains(Fault.LARGER_HOST_POOL_ON_RANK0)) {
      return c;
    }
    return new ControllerConfig(c.pageSize(), c.devicePages(), c.hostPages() + 1, c.writePolicy(),
        c.prefetchPolicy(), c.storage(), c.prefetchThresholdTokens(), c.loadBackThresholdTokens(), c.ioBatchPages(),
        c.timeoutBaseTicks(), c.timeoutTicksPer1024(), c.pageBytes());
  }
}
