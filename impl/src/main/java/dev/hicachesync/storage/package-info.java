/**
 * The storage tier L3: {@link dev.hicachesync.storage.StorageBackend} with a file backend ({@link
 * dev.hicachesync.storage.FileStorageBackend}: one checksummed object per key, atomic writes, keys that
 * cannot leave the root folder) and an in-memory one ({@link dev.hicachesync.storage.MemoryStorageBackend}),
 * addressed by {@link dev.hicachesync.storage.PageKey}, the hash chain of a page's tokens. {@link
 * dev.hicachesync.storage.LruStorageBackend} bounds either to a number of pages (a rank's L3 shard, LRU on
 * the order of its own calls).
 *
 * <p>Backends are called from background threads (prefetch, backup) and are thread-safe.
 */
package dev.hicachesync.storage;
