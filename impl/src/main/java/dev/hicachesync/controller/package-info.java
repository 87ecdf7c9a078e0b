/**
 * <b>Internal</b> (the public surface is {@code dev.hicachesync.api}).
 *
 * <p>The cache controller of one rank ({@code cache_controller.py} and the HiCache half of {@code
 * hiradix_cache.py}): write-through, load-back, storage prefetch and backup, the ack and control queues,
 * and one class per protocol step with a sync point ({@code WritingCheck} S1, {@code LoadingCheck} S2,
 * {@code DrainStorageControlQueues} S3, {@code CheckHicacheEvents} S123, {@code CanTerminatePrefetch} S4, {@code
 * CheckPrefetchProgress} S5, {@code ReleaseAbortedRequest} S6, {@code PrefetchThreadStep} S7).
 *
 * <p>How it is built: {@code CacheController} is the rank's facade (the scheduler's calls and read-only
 * views); {@code RankState} is the rank's state, one holder per kind ({@code Pools}, {@code CopyAcks}, {@code
 * StorageQueues}, {@code Prefetches}, {@code StorageTier}, {@code HostWrites}, {@code PageData}, {@code
 * DecisionHashes}), each owning its fields; {@code ProtocolSteps} is the protocol version's steps, chosen
 * once at construction ({@code SeparateEventChecks} for {@code pre20460} and {@code post20460}, {@code
 * FusedEventChecks} for {@code merged}, both on the prefetch steps of {@code HiCacheSyncSteps}; {@code
 * UnifiedSteps} for {@code unified}), so no step asks which version it is in.
 *
 * <p>Core types: {@link dev.hicachesync.controller.CacheController}, {@link
 * dev.hicachesync.controller.ControllerConfig}, {@link dev.hicachesync.controller.ControllerEnv}, {@link
 * dev.hicachesync.controller.KvData} (where copies move the KV bytes; none by default), {@link
 * dev.hicachesync.controller.ControllerThreads} (the rank's prefetch, prefetch I/O, backup and copy-completion
 * threads, one {@code HandOffWorker} each). Time comes in through {@code ControllerEnv}, and the threads are
 * started by whoever builds the rank ({@code api.HiCacheRank}, the simulator), never by the controller
 * itself; stepped, they hand back at the instants the environment chose, so a simulator still runs every rank
 * deterministically (docs/explanation/concurrency.md).
 */
package dev.hicachesync.controller;
