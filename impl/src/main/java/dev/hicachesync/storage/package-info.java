/**
 * The storage tier L3: {@link dev.hicachesync.storage.StorageBackend} with a file backend ({@link
 * dev.hicachesync.storage.FileStorageBackend}: one checksummed object per key, atomic writes, keys that
 * cannot leave the root folder) and an in-memory one ({@link dev.hicachesync.storage.MemoryStorageBackend}),
 * addressed by {@link dev.hicachesync.storage.PageKey}, the hash chain of a page's tokens.
 *
 * <p>Backends are called from background threads (prefetch, backup) and are thread-safe.
 */
package dev.hicachesync.storage;
