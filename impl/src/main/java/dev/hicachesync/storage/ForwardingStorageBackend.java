package dev.hicachesync.storage;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * An L3 that forwards every call to {@code inner}, for wrappers that change a few calls and keep the store's
 * behaviour for the rest (a seam that makes the S7 query raise, a replay's scripted hits, a test that records
 * which thread called). {@link #leadingHits} goes to the inner store's own, which may answer the whole query
 * under one lock ({@link LruStorageBackend}); a wrapper that watches the S7 query overrides it, not {@link
 * #exists}.
 */
public abstract class ForwardingStorageBackend implements StorageBackend {
  private final StorageBackend inner;

  protected ForwardingStorageBackend(StorageBackend inner) {
    this.inner = inner;
  }

  /** The store every call goes to unless a subclass says otherwise. */
  protected final StorageBackend inner() {
    return inner;
  }

  @Override
  public boolean exists(PageKey key) {
    return inner.exists(key);
  }

  @Override
  public int leadingHits(List<PageKey> keys) {
    return inner.leadingHits(keys);
  }

  @Override
  public boolean get(PageKey key, ByteBuffer dst) {
    return inner.get(key, dst);
  }

  @Override
  public void put(PageKey key, ByteBuffer src) {
    inner.put(key, src);
  }

  @Override
  public boolean remove(PageKey key) {
    return inner.remove(key);
  }

  @Override
  public String describe() {
    return getClass().getSimpleName() + " over " + inner.describe();
  }
}
