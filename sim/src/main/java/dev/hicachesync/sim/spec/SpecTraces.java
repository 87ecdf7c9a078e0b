package dev.hicachesync.sim.spec;

import dev.hicachesync.controller.ControllerConfig;
import dev.hicachesync.env.TransferKind;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.sim.environment.ForwardingTiming;
import dev.hicachesync.sim.environment.Timing;
import dev.hicachesync.trace.TraceFeature;
import dev.hicachesync.trace.TraceHeader;
import java.util.ArrayList;
import java.util.List;

/**
 * What a traced run adds (the rank's instrumentation is the API's, {@code api.TraceInstrumentation}): the
 * header, and the timing of a {@link SpecShaped} run.
 */
public final class SpecTraces {

  private SpecTraces() {}

  /**
   * The trace header: the run's constants named as the spec's, and the features it uses; for a run of the
   * simulator's own scheduler ({@link LoopShape#simulator}) no request stream, and features the spec cannot
   * follow, so that {@code validate-trace} refuses it by name.
   */
  public static TraceHeader header(SimConfig cfg) {
    SpecShaped s = cfg.specShaped();
    ControllerConfig c = cfg.controllerConfig();
    boolean storage = cfg.storage() != StorageMode.OFF;
    List<TraceFeature> features = new ArrayList<>();
    if (storage) {
      features.add(TraceFeature.STORAGE);
    }
    if (s != null && s.pagesPerKey() > 1) {
      features.add(storage ? TraceFeature.MULTI_PAGE_KEYS_WITH_STORAGE : TraceFeature.MULTI_PAGE_KEYS);
    }
    if (s != null && s.finishInStep()) {
      features.addAll(List.of(TraceFeature.FINISH_IN_STEP, TraceFeature.WRITE_AT_INSERT));
    }
    if (s != null && !s.aborted().isEmpty()) {
      features.add(TraceFeature.ABORTS);
    }
    if (s == null) { // the simulator's own loop: what its workload and shape let happen
      features.addAll(List.of(TraceFeature.WORKLOAD_RECV, TraceFeature.DECODE, TraceFeature.ABORTS,
          TraceFeature.SHARED_PREFIXES, TraceFeature.WRITE_AT_INSERT));
      if (cfg.maxRunning() > 1) {
        features.add(TraceFeature.SEVERAL_RUNNING);
      }
      if (cfg.abortRunning() > 0) {
        features.add(TraceFeature.ABORTS_RUNNING);
      }
    }
    if (cfg.topology().pp() > 1) {
      features.add(TraceFeature.PP);
    }
    return new TraceHeader(cfg.topology().dp(), cfg.topology().cp(), cfg.topology().tp(), cfg.topology().pp(),
        cfg.version().label(), cfg.prefetchPolicy().label(), cfg.writePolicy().label(), storage,
        s == null ? List.of() : s.requests(), s == null ? 1 : s.pagesPerKey(), cfg.devicePages(), cfg.hostPages(),
        Math.max(0, c.prefetchThresholdTokens() / cfg.pageSize()), features);
  }

  /**
   * {@code inner} with every GPU copy taking at least one tick, so that a copy is never done inside the step
   * that started it: the spec completes copies only while the whole domain waits at RECV.
   */
  public static Timing.Factory copiesEndAfterTheStep(Timing.Factory inner) {
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
