package dev.hicachesync.api.internal;

import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.controller.CacheController;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.sync.SyncGroups;
import dev.hicachesync.sync.SyncObserver;
import dev.hicachesync.trace.TraceRecorder;
import java.lang.invoke.MethodHandles;
import java.util.function.LongSupplier;

/**
 * <b>Internal</b>: the simulator's and the tests' door into a rank, never for an engine (the worked
 * example's import test rejects this package). The simulator builds each rank's controller itself, with its
 * seeded environment, trace observers, data path and deliberate bugs ({@code controller.ControllerFaults}),
 * and then drives it through the same {@link HiCacheRank} an engine uses. A rank made here does not enforce
 * the step order ({@code api.SchedulerCall}): the simulator reproduces bugs that break it.
 *
 * <p>How it reaches {@link HiCacheRank}'s package-private parts from outside the package: {@code HiCacheRank}
 * hands an {@link Access} to {@link #install} when its class initialises (the JDK's "shared secrets").
 */
public final class Seam {
  private static volatile Access access;

  private Seam() {}

  /** What {@link HiCacheRank} lends this package. */
  public interface Access {
    /** The public API over {@code controller}; {@code trace} may be null. */
    HiCacheRank wrap(CacheController controller, boolean writeThroughAtFinish, TraceInstrumentation trace);

    /** The controller behind {@code rank}. */
    CacheController controller(HiCacheRank rank);
  }

  /** Called once, by {@link HiCacheRank}'s class initialisation. */
  public static void install(Access a) {
    if (access != null) {
      throw new IllegalStateException("the seam is installed already");
    }
    access = a;
  }

  private static Access access() {
    if (access == null) {
      try {
        MethodHandles.lookup().ensureInitialized(HiCacheRank.class);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e);
      }
    }
    return access;
  }

  /** Returns the public API over a controller the simulator built; its environment is the simulator's. */
  public static HiCacheRank wrap(CacheController controller) {
    return wrap(controller, false, null);
  }

  /**
   * As {@link #wrap(CacheController)}; with {@code writeThroughAtFinish} the rank starts write-through when a
   * request finishes ({@code cacheFinishedReq}, the point where {@code HiCacheSync.tla} starts it) instead of
   * at insert: the simulator's spec-shaped runs, whose traces the spec checks.
   */
  public static HiCacheRank wrap(CacheController controller, boolean writeThroughAtFinish) {
    return wrap(controller, writeThroughAtFinish, null);
  }

  /** As {@link #wrap(CacheController, boolean)}, with the API's trace instrumentation (null: none). */
  public static HiCacheRank wrap(CacheController controller, boolean writeThroughAtFinish,
      TraceInstrumentation trace) {
    return access().wrap(controller, writeThroughAtFinish, trace);
  }

  /**
   * The API's trace instrumentation for a rank the simulator builds itself (what {@link
   * HiCacheRankBuilder#trace} does for an engine): build the controller with its groups and observer, then
   * hand it to {@link #wrap(CacheController, boolean, TraceInstrumentation)}. Null when {@code out} records
   * nothing.
   */
  public static TraceInstrumentation instrument(ProtocolVersion v, SyncGroups sched, SyncGroups prefetch,
      TraceRecorder out, SyncObserver next, int pageSize, LongSupplier step) {
    return TraceInstrumentation.of(v, sched, prefetch, out, next, pageSize, step);
  }

  /** Returns the controller behind {@code rank}, for the simulator's checks and statistics. */
  public static CacheController controller(HiCacheRank rank) {
    return access().controller(rank);
  }
}
