package dev.hicachesync.storage;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * A bounded L3 store: at most {@code capacity} page objects in its own delegate store; a {@code put} that
 * would exceed it deletes the least recently used object first.
 *
 * <p>Recency is a logical clock, the order of this store's own calls: a {@code put} (new or re-written
 * key) and a successful {@code get} make a key the most recent; {@code exists}/{@link #leadingHits} (a
 * hit query, which reads no data) do not. No wall time enters, so the same call sequence always evicts
 * the same keys. The simulator gives every rank its own instance, called only from that rank's thread in
 * the rank's deterministic event order, which makes a replay of a seed evict exactly as the run did (see
 * {@code Simulator}). Keys are held in an access-ordered {@link LinkedHashMap}: O(1) per call.
 *
 * <p>The delegate must be this store's alone: objects it holds that were not put through this store
 * (say, a folder left by an earlier run) are invisible here, and evictions delete from it. Thread-safe
 * (one lock; the simulator never contends it).
 */
public final class LruStorageBackend implements StorageBackend {
  private final StorageBackend delegate;
  private final long capacity;
  /** Resident keys, least recently used first. Guarded by {@code this}. */
  private final LinkedHashMap<PageKey, Boolean> resident = new LinkedHashMap<>(16, 0.75f, true);
  private long evicted;

  /**
   * Bounds {@code delegate} (empty, and used by nobody else) to {@code capacity} pages.
   *
   * @throws IllegalArgumentException if {@code capacity} < 1 (no L3 at all is storage off, not size 0)
   */
  public LruStorageBackend(StorageBackend delegate, long capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("an L3 capacity must be >= 1 page, got " + capacity);
    }
    this.delegate = delegate;
    this.capacity = capacity;
  }

  /** Returns the store this one bounds (for faults that damage its objects in place). */
  public StorageBackend delegate() {
    return delegate;
  }

  @Override
  public synchronized boolean exists(PageKey key) {
    return resident.containsKey(key); // containsKey does not reorder an access-ordered map
  }

  @Override
  public synchronized int leadingHits(List<PageKey> keys) {
    int n = 0;
    while (n < keys.size() && resident.containsKey(keys.get(n))) {
      n++;
    }
    return n;
  }

  @Override
  public synchronized boolean get(PageKey key, ByteBuffer dst) {
    if (!resident.containsKey(key)) {
      return false;
    }
    if (!delegate.get(key, dst)) {
      resident.remove(key); // deleted behind our back: forget it rather than claim a hit
      return false;
    }
    resident.get(key); // a read makes it the most recent
    return true;
  }

  @Override
  public synchronized void put(PageKey key, ByteBuffer src) {
    delegate.put(key, src);
    resident.put(key, Boolean.TRUE); // new or re-written: the most recent either way
    Iterator<PageKey> lru = resident.keySet().iterator();
    while (resident.size() > capacity) {
      PageKey victim = lru.next(); // never the key just put: capacity >= 1 and it is the most recent
      lru.remove();
      delegate.remove(victim);
      evicted++;
    }
  }

  @Override
  public synchronized boolean remove(PageKey key) {
    boolean had = resident.remove(key) != null;
    return delegate.remove(key) || had;
  }

  /** Returns the most objects this store holds. */
  public long capacity() {
    return capacity;
  }

  /** Returns the objects held now. */
  public synchronized int size() {
    return resident.size();
  }

  /** Returns how many objects were evicted to make room. */
  public synchronized long evicted() {
    return evicted;
  }

  /** Returns the resident keys, least recently used first (tests). */
  public synchronized List<PageKey> lruOrder() {
    return List.copyOf(resident.keySet());
  }

  @Override
  public synchronized String describe() {
    return "lru " + resident.size() + "/" + capacity + " pages (" + evicted + " evicted) over "
        + delegate.describe();
  }
}
