package dev.hicachesync.api;

import dev.hicachesync.api.internal.TraceInstrumentation;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.controller.CacheController;
import dev.hicachesync.controller.ControllerEnv;
import dev.hicachesync.controller.ControllerThreads;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.sync.SyncGroups;
import dev.hicachesync.sync.SyncLayer;
import dev.hicachesync.sync.SyncObserver;
import dev.hicachesync.tier.HostPool;
import dev.hicachesync.topology.RankCoord;
import dev.hicachesync.topology.Topology;
import java.util.List;

/**
 * What {@link HiCacheRankBuilder#build()} does: checks the engine's groups against the grid, then wires the
 * rank: its environment and threads, the scheduler's groups stamped with the step order ({@link
 * OrderStampedGroup}) under the trace instrumentation, the prefetch (and completion-sync) layers, and the data
 * path over the engine's device tier.
 */
final class RankWiring {
  private RankWiring() {}

  static HiCacheRank build(HiCacheRankBuilder b) {
    HiCacheConfig config = b.config();
    RankGroups groups = b.groups();
    if (groups == null) {
      throw new IllegalArgumentException("rank " + config.rank() + ": no process groups (Builder.groups)");
    }
    Topology t = config.topology();
    int r = config.rank();
    checkMembers(config, "attn_tp", groups.attnTp().members(), t.attnTpGroup(r));
    checkMembers(config, "attn_cp", groups.attnCp().members(), t.attnCpGroup(r));
    checkMembers(config, "cp_tp", groups.cpTp().members(), t.cpTpGroup(r));
    checkMembers(config, "prefetch attn_tp", groups.prefetchAttnTp().members(), t.attnTpGroup(r));
    checkMembers(config, "prefetch attn_cp", groups.prefetchAttnCp().members(), t.attnCpGroup(r));
    checkMembers(config, "prefetch cp_tp", groups.prefetchCpTp().members(), t.cpTpGroup(r));
    if (groups.hasCompletionGroups()) {
      checkMembers(config, "completion attn_tp", groups.completionAttnTp().members(), t.attnTpGroup(r));
      checkMembers(config, "completion attn_cp", groups.completionAttnCp().members(), t.attnCpGroup(r));
      checkMembers(config, "completion cp_tp", groups.completionCpTp().members(), t.cpTpGroup(r));
    } else if (config.version() == ProtocolVersion.UNIFIED && b.threadMode() == ThreadMode.FREE_RUNNING) {
      throw new IllegalArgumentException("rank " + r + ": version unified free-running needs the completion-sync "
          + "groups (RankGroups' completion*, #27010): on the prefetch groups S7 and the completion sync race");
    }
    if (config.version() == ProtocolVersion.PIPELINED) {
      throw new IllegalArgumentException("rank " + r + ": version pipelined (proposal #39903, closed unmerged) runs"
          + " in the simulator only: RankGroups has no group for its asynchronous S123");
    }
    RankCoord c = t.coords(r);
    if ((groups.fromPrev() == null) != (c.pp() == 0) || (groups.toNext() == null) != (c.pp() == t.pp() - 1)) {
      throw new IllegalArgumentException("rank " + r + " is stage " + c.pp() + " of " + t.pp()
          + ": it needs a channel from the previous stage iff pp_rank > 0 and to the next iff not last");
    }
    if (b.deviceTier() != null && b.deviceTier().capacityPages() < config.devicePages()) {
      throw new IllegalArgumentException("rank " + r + ": the device tier has " + b.deviceTier().capacityPages()
          + " pages, the configuration's devicePages is " + config.devicePages());
    }
    String name = "rank" + r;
    ControllerThreads threads = b.threadMode() == ThreadMode.STEPPED ? ControllerThreads.stepped(name)
        : ControllerThreads.freeRunning(name);
    StepEnvironment stepped = b.threadMode() == ThreadMode.STEPPED ? new StepEnvironment() : null;
    FreeRunningEnvironment free = stepped == null ? new FreeRunningEnvironment(threads) : null;
    ControllerEnv env = stepped != null ? threads.around(stepped) : free;
    CallOrder order = new CallOrder(r);
    SyncGroups sched = new SyncGroups(stamped(groups.attnTp(), order), stamped(groups.attnCp(), order),
        stamped(groups.cpTp(), order), null, groups.fromPrev(), groups.toNext());
    SyncGroups pf = new SyncGroups(groups.prefetchAttnTp(), groups.prefetchAttnCp(), groups.prefetchCpTp(),
        t.pp() > 1 ? groups.prefetchPp() : null, null, null);
    TraceInstrumentation traced = TraceInstrumentation.of(config.version(), sched, pf, b.traceRecorder(),
        SyncObserver.NONE, config.pageSize(), b.traceStep());
    if (traced != null) {
      sched = traced.sched();
      pf = traced.prefetch();
    }
    CacheController controller = new CacheController(config.controllerConfig(b.storage().on()), env,
        new SyncLayer(config.version(), sched), new SyncLayer(config.version(), pf),
        traced != null ? traced.observer() : SyncObserver.NONE, b.storage().backend(), "tp" + t.tpRank(r) + "pp" + c.pp());
    if (groups.hasCompletionGroups()) {
      SyncGroups pfc = new SyncGroups(groups.completionAttnTp(), groups.completionAttnCp(), groups.completionCpTp(),
          t.pp() > 1 ? groups.completionPp() : null, null, null);
      controller.useCompletionSync(new SyncLayer(config.version(),
          traced != null ? traced.completion(config.version(), pfc) : pfc));
    }
    controller.attachThreads(threads);
    if (b.deviceTier() != null) {
      controller.attachData(new TierData(b.deviceTier(), new HostPool(Math.max(1, config.hostPages()),
          b.deviceTier().layers(), b.deviceTier().layerBytes(), b.hostLayout())));
    }
    return new HiCacheRank(controller, stepped, free, false, traced, order);
  }

  /** A group of one member makes no collective (the sync layer skips it): nothing to stamp. */
  private static ProcessGroup stamped(ProcessGroup g, CallOrder order) {
    return g.size() <= 1 ? g : new OrderStampedGroup(g, order);
  }

  private static void checkMembers(HiCacheConfig config, String what, List<Integer> got, List<Integer> want) {
    if (!got.equals(want)) {
      throw new IllegalArgumentException("rank " + config.rank() + ": its " + what + " group has members " + got
          + ", the grid " + config.topology() + " gives " + want);
    }
  }
}
