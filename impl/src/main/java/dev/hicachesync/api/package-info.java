/**
 * The public API an engine embeds: one {@link dev.hicachesync.api.HiCacheRank} per rank, built from a
 * {@link dev.hicachesync.api.HiCacheConfig} (SGLang's server-argument names), the engine's process groups
 * ({@link dev.hicachesync.api.RankGroups}; {@link dev.hicachesync.api.InJvmCluster} builds them for ranks
 * that are threads of one JVM), an L3 store ({@link dev.hicachesync.api.HiCacheStorage}) and optionally the
 * engine's device pool ({@code tier.DeviceTier}). Each rank owns four threads (prefetch, prefetch I/O, backup,
 * copy completion), stepped or free-running ({@link dev.hicachesync.api.ThreadMode}), stopped by {@code
 * HiCacheRank.close()}.
 *
 * <p>Core types: {@code HiCacheRank} (what the scheduler calls per step and per request), {@code
 * PrefixMatch} (a match result), {@code CachedRequest} (the cache state a running request holds). Everything
 * outside this package is internal, except the engine-facing contracts named by {@code RankGroups}: {@code
 * collective.ProcessGroup}, {@code collective.PipeChannel}, {@code collective.ReduceOp} and the collective
 * exceptions, which an engine implements or catches, {@code storage.StorageBackend} and {@code
 * tier.DeviceTier}. {@link dev.hicachesync.api.Seam} is internal too: the
 * simulator's and the tests' door into a rank (fault injection, the simulated environment, the data path).
 *
 * <p>The guide is {@code docs/tutorial/embed-a-rank.md}; the worked example is {@code
 * impl/src/test/java/dev/hicachesync/example/ServingLoopExample.java}.
 */
package dev.hicachesync.api;
