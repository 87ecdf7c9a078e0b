/**
 * The public API an engine embeds: one {@link dev.hicachesync.api.HiCacheRank} per rank, built from a
 * {@link dev.hicachesync.api.HiCacheConfig} (SGLang's server-argument names), the engine's process groups
 * ({@link dev.hicachesync.api.RankGroups}; {@link dev.hicachesync.api.InJvmCluster} builds them for ranks
 * that are threads of one JVM), an L3 store ({@link dev.hicachesync.api.HiCacheStorage}) and optionally the
 * engine's device pool ({@code tier.DeviceTier}; {@code tier.HostMemoryDeviceTier} for an engine without a
 * GPU). Each rank owns five threads (prefetch, completion sync, prefetch I/O, backup, copy completion; the
 * completion-sync one idle outside version {@code unified}), stepped or free-running ({@link
 * dev.hicachesync.api.ThreadMode}), stopped by {@code HiCacheRank.close()}.
 *
 * <p>Core types: {@code HiCacheRank} (what the scheduler calls per step and per request), {@code
 * SchedulerCall} (the step's order, enforced: {@code CallOrderException}), {@code PrefixMatch} (a match
 * result), {@code CachedRequest} (the cache state a running request holds). Everything outside this package
 * is internal, except the engine-facing contracts: {@code collective.ProcessGroup}, {@code
 * collective.PipeChannel}, {@code collective.ReduceOp} and the collective exceptions (named by {@code
 * RankGroups}), which an engine implements or catches; {@code storage.StorageBackend} (an engine's own L3);
 * {@code tier.DeviceTier}, {@code tier.HostLayout} and {@code tier.HostMemoryDeviceTier} (its device pool);
 * and, to record a trace, {@code trace.TraceRecorder} with {@code trace.TraceHeader} and {@code trace.TraceFeature}
 * (the NDJSON writer, {@code trace.ndjson.NdjsonTraceRecorder}, is in the {@code hicache-sync-trace}
 * artifact). The sub-package {@code api.internal} is not part of the
 * API: {@link dev.hicachesync.api.internal.Seam}, the simulator's and the tests' door into a rank (fault
 * injection, the simulated environment, the data path), and the trace instrumentation behind {@code
 * HiCacheRankBuilder.trace}.
 *
 * <p>The guide is {@code docs/tutorial/embed-a-rank.md}; the worked example is {@code
 * impl/src/test/java/dev/hicachesync/example/ServingLoopExample.java}.
 */
package dev.hicachesync.api;
