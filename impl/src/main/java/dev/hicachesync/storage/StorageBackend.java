package dev.hicachesync.storage;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * An L3 store of page objects keyed by {@link PageKey} (Mooncake, 3FS, a file system in SGLang).
 *
 * <p>Thread-safe: the prefetch and backup threads of a rank call it concurrently. A concurrent {@code put}
 * and {@code get} of one key return the old or the new object whole, never a mix.
 */
public interface StorageBackend {

  /** Returns whether an object for {@code key} is stored. */
  boolean exists(PageKey key);

  /** Returns how many keys from the start of {@code keys} are stored (the leading run; S7's local value). */
  default int leadingHits(List<PageKey> keys) {
    int n = 0;
    while (n < keys.size() && exists(keys.get(n))) {
      n++;
    }
    return n;
  }

  /**
   * Copies the object for {@code key} into {@code dst} (advancing its position) and returns true, or
   * returns false if absent.
   *
   * @throws CorruptPageException if the stored object fails its checksum or does not fit {@code dst}
   */
  boolean get(PageKey key, ByteBuffer dst);

  /** Stores the remaining bytes of {@code src} (advancing its position) as {@code key}, replacing any object. */
  void put(PageKey key, ByteBuffer src);

  /**
   * Deletes the object for {@code key}; returns whether there was one. A bounded store evicts through
   * this ({@link LruStorageBackend}); tests inject missing pages with it.
   */
  boolean remove(PageKey key);

  /** Returns which backend this is and where, e.g. {@code file /var/hicache (crc32c)}. */
  String describe();
}
