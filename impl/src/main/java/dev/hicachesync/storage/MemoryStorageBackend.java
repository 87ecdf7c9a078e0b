package dev.hicachesync.storage;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link StorageBackend} in a concurrent map of byte-array copies: the simulator's and tests' L3.
 *
 * <p>Thread-safe; each object is replaced whole, so a reader sees the old or the new copy.
 */
public final class MemoryStorageBackend implements StorageBackend {
  private final Map<PageKey, byte[]> objects = new ConcurrentHashMap<>();

  @Override
  public boolean exists(PageKey key) {
    return objects.containsKey(key);
  }

  @Override
  public boolean get(PageKey key, ByteBuffer dst) {
    byte[] data = objects.get(key);
    if (data == null) {
      return false;
    }
    if (dst.remaining() < data.length) {
      throw new CorruptPageException(
          "page " + key + " holds " + data.length + " bytes, destination has room for " + dst.remaining());
    }
    dst.put(data);
    return true;
  }

  @Override
  public void put(PageKey key, ByteBuffer src) {
    byte[] data = new byte[src.remaining()];
    src.get(data);
    objects.put(key, data);
  }

  /** Returns the number of stored objects. */
  public int size() {
    return objects.size();
  }

  @Override
  public boolean remove(PageKey key) {
    return objects.remove(key) != null;
  }

  @Override
  public String describe() {
    return "memory (" + objects.size() + " objects)";
  }
}
