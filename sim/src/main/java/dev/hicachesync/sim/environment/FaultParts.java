package dev.hicachesync.sim.environment;

import static dev.hicachesync.sim.environment.Fault.*;

import dev.hicachesync.controller.ControllerFaults;
import dev.hicachesync.controller.SidecarFaults;
import dev.hicachesync.sync.ProtocolVersion;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a run's {@link Fault}s mean to each layer it configures (the controller's faults, the sidecar pool's, version
 * pipelined's asynchronous S123, the runtime attach), and the checks that refuse a fault the run cannot have (another
 * version's, a PP fault without stages): one line each, for {@code SimConfig} to report.
 */
public final class FaultParts {

  private FaultParts() {}

  /** Returns the faults of version {@code pipelined}'s asynchronous S123 for rank {@code rank} (rank 0's path off). */
  public static dev.hicachesync.controller.PipelinedFaults pipelinedFaults(Set<Fault> faults, int rank) {
    return new dev.hicachesync.controller.PipelinedFaults(faults.contains(PIPELINED_COUNTS_BEFORE_CONSUMING),
        rank == 0 && faults.contains(ASYNC_RANK_OFF));
  }

  /** Refuses a {@code unified}-only fault in another version (one line). */
  public static void checkVersion(Set<Fault> faults, ProtocolVersion version) {
    for (Fault f : faults) {
      if (f.pipelinedOnly() && version != ProtocolVersion.PIPELINED) {
        throw new IllegalArgumentException("fault " + f.name().toLowerCase(java.util.Locale.ROOT)
            + " is a path of version pipelined only; got --version " + version);
      }
      if (f.unifiedOnly() && version != ProtocolVersion.UNIFIED) {
        throw new IllegalArgumentException("fault " + f.name().toLowerCase(java.util.Locale.ROOT)
            + " is a path of version unified only; got --version " + version);
      }
      if (SIDECAR.contains(f) && version == ProtocolVersion.UNIFIED) {
        throw new IllegalArgumentException("fault " + f.name().toLowerCase(java.util.Locale.ROOT)
            + " needs the sidecar pool, which is modelled in the versions before unified; got --version unified");
      }
    }
  }

  /** The faults that give ranks a sidecar pool (each of them implies {@link #SIDECAR_POOL}). */
  private static final Set<Fault> SIDECAR = EnumSet.of(SIDECAR_POOL, LOCAL_EXTRA_POOLS, SIDECAR_MIN_KV_ONLY,
      SIDECAR_SUM_COUNT, SIDECAR_EARLY_RETURN);

  /**
   * Returns the sidecar faults of rank {@code rank}, or null when it has no sidecar pool (none of the sidecar
   * faults, or rank 0 with {@link #LOCAL_EXTRA_POOLS}).
   */
  public static SidecarFaults sidecarFaults(Set<Fault> faults, int rank) {
    boolean pool = faults.stream().anyMatch(SIDECAR::contains);
    if (!pool || rank == 0 && faults.contains(LOCAL_EXTRA_POOLS)) {
      return null;
    }
    return new SidecarFaults(faults.contains(SIDECAR_MIN_KV_ONLY), faults.contains(SIDECAR_SUM_COUNT),
        faults.contains(SIDECAR_EARLY_RETURN));
  }

  /** Returns the controller's part of {@code faults}. */
  public static ControllerFaults controllerFaults(Set<Fault> faults) {
    return controllerFaults(faults, 0);
  }

  /** Returns the controller's part of {@code faults} for rank {@code rank} of stage 0. */
  public static ControllerFaults controllerFaults(Set<Fault> faults, int rank) {
    return controllerFaults(faults, rank, 0);
  }

  /**
   * Returns the controller's part of {@code faults} for rank {@code rank} on pipeline stage {@code stage} (a
   * backend raises on rank 0; the PP drain faults make the later stages' storage threads late).
   */
  public static ControllerFaults controllerFaults(Set<Fault> faults, int rank, int stage) {
    boolean ppDrain = faults.contains(PP_DRAIN_NOWAIT) || faults.contains(PP_DRAIN_BLOCKING);
    return new ControllerFaults(faults.contains(SKIP_IDLE_WRITE_CHECK),
        faults.contains(UNSYNCED_LOADING_CHECK),
        faults.contains(EARLY_TAIL_RELEASE) || faults.contains(EARLY_SLOT_REUSE),
        faults.contains(EARLY_SLOT_REUSE), faults.contains(LOCAL_TERMINATE),
        faults.contains(PD_DECODE_LOAD_READINESS),
        rank == 0 && faults.contains(BACKUP_THREAD_DIES), rank == 0 && faults.contains(BACKUP_RAISE_ACKED),
        faults.contains(PP_DRAIN_NOWAIT), ppDrain && stage > 0, faults.contains(LOCAL_S3_PAYLOAD),
        faults.contains(RELEASE_WHOLE), faults.contains(CONSTANT_DIGEST_PAIR), faults.contains(PF_RAISE_THREAD_DIES),
        faults.contains(PP_THREAD_READINESS));
  }

  /** Refuses a PP fault (a drain, the stage-local sync, a later stage's pool) without pipeline stages (one line): it needs a later stage. */
  public static void checkStages(Set<Fault> faults, int pp) {
    for (Fault f : EnumSet.of(PP_DRAIN_NOWAIT, PP_DRAIN_BLOCKING, PP_DRAIN_STAGE_LOCAL, PP_STAGE_LOCAL_SYNC,
        LARGER_DEVICE_POOL_ON_LATER_STAGES, PP_WORLD_ALLREDUCE, PP_STAGE_LOCAL_PREFETCH_HITS, S7_STAGE_MASK,
        STAGE_EXTRA_POOLS, PADDED_POOL_VECTORS,
        PP_PREFETCH_TICKETS, TICKET_OWN_HIT, TICKET_STAGE_COMPLETION)) {
      if (faults.contains(f) && pp < 2) {
        throw new IllegalArgumentException("fault " + f.name().toLowerCase(java.util.Locale.ROOT)
            + " needs pipeline stages (--pp 2 or more); got pp " + pp);
      }
    }
  }

  /** Returns whether {@code faults} runs the runtime-attach scenario (storage starts detached). */
  public static boolean runtimeAttach(Set<Fault> faults) {
    return faults.contains(ATTACH_FAILS_LOCALLY) || faults.contains(ATTACH_AGREED) || faults.contains(ATTACH_ALL_OK);
  }
}
