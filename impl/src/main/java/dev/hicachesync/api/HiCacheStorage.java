package dev.hicachesync.api;

import dev.hicachesync.storage.FileStorageBackend;
import dev.hicachesync.storage.MemoryStorageBackend;
import dev.hicachesync.storage.StorageBackend;
import java.nio.file.Path;

/**
 * The L3 store a rank attaches ({@code --hicache-storage-backend}): one object shared by every rank that
 * sees the same store, as a real L3 is shared. Thread-safe (the backends are).
 */
public final class HiCacheStorage {
  /** No L3: prefetch and storage backup are off. */
  public static final HiCacheStorage NONE = new HiCacheStorage(null);

  private final StorageBackend backend;

  private HiCacheStorage(StorageBackend backend) {
    this.backend = backend;
  }

  /** An in-memory store ({@code memory}); share the returned object between the ranks. */
  public static HiCacheStorage memory() {
    return new HiCacheStorage(new MemoryStorageBackend());
  }

  /** A file store under {@code root} ({@code file}, SGLang's {@code HiCacheFile}). */
  public static HiCacheStorage file(Path root) {
    return new HiCacheStorage(new FileStorageBackend(root));
  }

  /** An engine's own backend (Mooncake, 3FS, ...) behind the {@code storage.StorageBackend} contract. */
  public static HiCacheStorage of(StorageBackend backend) {
    return new HiCacheStorage(java.util.Objects.requireNonNull(backend, "backend"));
  }

  /** Returns whether a store is attached. */
  public boolean on() {
    return backend != null;
  }

  @Override
  public String toString() {
    return backend == null ? "storage off" : backend.describe();
  }

  /** The backend, or null for {@link #NONE}. */
  StorageBackend backend() {
    return backend;
  }
}
