package dev.hicachesync.sim;

import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.controller.ControllerConfig;
import dev.hicachesync.env.TransferKind;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.sync.SyncGroups;
import dev.hicachesync.trace.TraceHeader;
import dev.hicachesync.trace.TracingProcessGroup;
import java.util.function.LongSupplier;

/** How a {@link SpecShaped} run is wired for its trace: header, traced group handles, timing. */
final class SpecTraces {

  private SpecTraces() {}

  /** The trace header: the run's constants named as the spec's. */
  static TraceHeader header(SimConfig cfg) {
    SpecShaped s = cfg.specShaped();
    ControllerConfig c = cfg.controllerConfig();
    return new TraceHeader(cfg.topology().dp(), cfg.topology().cp(), cfg.topology().tp(), cfg.topology().pp(),
        cfg.version().label(), cfg.prefetchPolicy().label(), cfg.writePolicy().label(),
        cfg.storage() != StorageMode.OFF, s.requests(), s.pagesPerKey(), cfg.devicePages(), cfg.hostPages(),
        Math.max(0, c.prefetchThresholdTokens() / cfg.pageSize()));
  }

  /** How many groups a scheduler sync point reduces over (singletons skipped), as the spec's SyncGroups. */
  static int stages(ProtocolVersion v, int cpSize, int tpSize) {
    return switch (v) {
      case PRE20460 -> tpSize > 1 ? 1 : 0;
      case POST20460 -> (cpSize > 1 ? 1 : 0) + (tpSize > 1 ? 1 : 0);
      case MERGED, UNIFIED -> cpSize * tpSize > 1 ? 1 : 0;
    };
  }

  /**
   * The scheduler's sync groups with every handle recording into {@code trace}, each named as the spec
   * names it: attn_cp is stage 1, attn_tp stage 2 after it (post20460) or 1 alone; merged's one CP×TP
   * collective is the spec's single non-singleton group (attn_cp when TP = 1, attn_tp when CP = 1), or, on a
   * full grid, logged as one collective of the domain.
   */
  static SyncGroups traced(ProtocolVersion v, ProcessGroup attnTp, ProcessGroup attnCp, ProcessGroup cpTp,
      RankTrace trace, LongSupplier step) {
    return traced(v, attnTp, attnCp, cpTp, trace, "sched", step);
  }

  /** {@link #traced} on channel {@code ch}: "sched" (the scheduler) or "pf" (the prefetch thread, S7). */
  static SyncGroups traced(ProtocolVersion v, ProcessGroup attnTp, ProcessGroup attnCp, ProcessGroup cpTp,
      RankTrace trace, String ch, LongSupplier step) {
    int tpStage = v == ProtocolVersion.POST20460 && attnCp.size() > 1 ? 2 : 1;
    // Over a whole CP x TP grid the one collective is logged as what it is (group kind "domain"), and
    // validate-trace's SpecEvents splits it into the spec's attn_cp and attn_tp steps.
    String cpTpKind = attnCp.size() > 1 && attnTp.size() > 1 ? "domain" : attnCp.size() > 1 ? "attn_cp" : "attn_tp";
    return new SyncGroups(
        new TracingProcessGroup(attnTp, trace, "attn_tp", ch, tpStage, step),
        new TracingProcessGroup(attnCp, trace, "attn_cp", ch, 1, step),
        new TracingProcessGroup(cpTp, trace, cpTpKind, ch, 1, step),
        null, null, null);
  }

  /**
   * {@code inner} with every GPU copy taking at least one tick, so that a copy is never done inside the step
   * that started it: the spec completes copies only while the whole domain waits at RECV.
   */
  static Timing.Factory copiesEndAfterTheStep(Timing.Factory inner) {
    return (seed, rank, readFailure) -> {
      Timing t = inner.create(seed, rank, readFailure);
      return new ForwardingTiming(t) {
        @Override
        public long copyTicks(TransferKind kind, int pages) {
          return 1 + super.copyTicks(kind, pages);
        }
      };
    };
  }
}
