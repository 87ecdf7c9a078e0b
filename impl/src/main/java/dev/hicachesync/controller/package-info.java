/**
 * <b>Internal</b> (the public surface is {@code dev.hicachesync.api}).
 *
 * <p>The cache controller of one rank ({@code cache_controller.py} and the HiCache half of {@code
 * hiradix_cache.py}): write-through, load-back, storage prefetch and backup, the ack and control queues,
 * and one class per protocol step with a sync point ({@code WritingCheck} S1, {@code LoadingCheck} S2,
 * {@code DrainStorageQueues} S3, {@code FusedEventCheck} S123, {@code CanTerminatePrefetch} S4, {@code
 * CheckPrefetchProgress} S5, {@code ReleaseAbortedRequest} S6, {@code PrefetchThreadStep} S7).
 *
 * <p>Core types: {@link dev.hicachesync.controller.CacheController}, {@link
 * dev.hicachesync.controller.ControllerConfig}, {@link dev.hicachesync.controller.ControllerEnv}, {@link
 * dev.hicachesync.controller.KvData} (where copies move the KV bytes; none by default). Threads and
 * time come in through {@code ControllerEnv}: the controller never starts a thread or reads wall time, so
 * a simulator can run every rank deterministically.
 */
package dev.hicachesync.controller;
