package dev.hicachesync.storage;

import java.nio.ByteBuffer;

/**
 * A test's L3 that forwards every call to {@code inner}; a test overrides the calls it watches or holds
 * (which thread called, a gate inside a query) and keeps the real store's behaviour for the rest.
 */
public abstract class ForwardingStorageBackend implements StorageBackend {
  protected final StorageBackend inner;

  protected ForwardingStorageBackend(StorageBackend inner) {
    this.inner = inner;
  }

  @Override
  public boolean exists(PageKey key) {
    return inner.exists(key);
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
