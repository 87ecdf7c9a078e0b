package dev.hicachesync.storage;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One rank's view of a store with seeded environment faults (soak): a read finds its page
 * corrupt ({@link CorruptPageException}) or missing (absent although the hit query saw it), or an
 * operation fails outright ({@link StorageBackendException}). Existence queries are not faulted: S7's hit
 * count stays what the store holds, so a fault shows as a read that fails after the ranks agreed to read.
 *
 * <p>Why per rank: each rank's wrapper draws from its own random source in its own call order, so a
 * seed replays although the ranks share the store underneath. Counters are shared by every rank of a
 * run ({@link Tally}).
 */
public final class FaultyStorageBackend implements StorageBackend {
  /** Faults injected, by kind, across the ranks of a run. */
  public static final class Tally {
    public final AtomicLong corrupt = new AtomicLong();
    public final AtomicLong missing = new AtomicLong();
    public final AtomicLong backendErrors = new AtomicLong();
  }

  private final StorageBackend delegate;
  private final int rank;
  private final double corrupt;
  private final double missing;
  private final double backendError;
  private final SplittableRandom rnd;
  private final Tally tally;

  /**
   * Wraps {@code delegate} for {@code rank}; each probability is per call ({@code corrupt}, {@code missing}:
   * per read; {@code backendError}: per read or write).
   */
  public FaultyStorageBackend(StorageBackend delegate, int rank, long seed, double corrupt, double missing,
      double backendError, Tally tally) {
    this.delegate = delegate;
    this.rank = rank;
    this.corrupt = corrupt;
    this.missing = missing;
    this.backendError = backendError;
    this.rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + rank);
    this.tally = tally;
  }

  @Override
  public boolean exists(PageKey key) {
    return delegate.exists(key);
  }

  @Override
  public synchronized boolean get(PageKey key, ByteBuffer dst) {
    failOutright("get", key);
    double x = rnd.nextDouble();
    if (x < corrupt) {
      tally.corrupt.incrementAndGet();
      throw new CorruptPageException("page " + key + ": injected corruption (rank " + rank + ")");
    }
    if (x < corrupt + missing) {
      tally.missing.incrementAndGet();
      return false;
    }
    return delegate.get(key, dst);
  }

  @Override
  public synchronized void put(PageKey key, ByteBuffer src) {
    failOutright("put", key);
    delegate.put(key, src);
  }

  private void failOutright(String op, PageKey key) {
    if (backendError > 0 && rnd.nextDouble() < backendError) {
      tally.backendErrors.incrementAndGet();
      throw new StorageBackendException("rank " + rank + ": storage backend failed in " + op + " of page " + key
          + " (injected)");
    }
  }

  @Override
  public boolean remove(PageKey key) {
    return delegate.remove(key);
  }

  @Override
  public String describe() {
    return delegate.describe() + " with faults";
  }
}
