package dev.hicachesync.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * One rank's view of a store with seeded environment faults (a soak): a read finds its page corrupt ({@link
 * CorruptPageException}) or missing (absent although the hit query saw it), or an operation fails outright
 * ({@link StorageBackendException}); or the object itself is damaged in the store before the read: grown far
 * past its size ({@link #OVERSIZED_BYTES}, a sparse file: the read must stay bounded by its header), or forged
 * (payload changed and its checksum recomputed, written back under its key: only a check of the bytes sees it). Existence queries are not faulted: S7's hit
 * count stays what the store holds, so a fault shows as a read that fails after the ranks agreed to read.
 *
 * <p>Why per rank: each rank's wrapper draws from its own random source in its own call order, so a
 * seed replays although the ranks share the store underneath. Counters are shared by every rank of a
 * run ({@link Tally}).
 */
public final class FaultyStorageBackend implements StorageBackend {
  /** Faults injected, by kind, across the ranks of a run: counted by the wrappers, read by everyone. */
  public static final class Tally {
    private final AtomicLong corrupt = new AtomicLong();
    private final AtomicLong missing = new AtomicLong();
    private final AtomicLong backendErrors = new AtomicLong();
    private final AtomicLong oversized = new AtomicLong();
    private final AtomicLong forged = new AtomicLong();

    /** Every count at zero. */
    public Tally() {}

    public long corrupt() { return corrupt.get(); }
    public long missing() { return missing.get(); }
    public long backendErrors() { return backendErrors.get(); }
    public long oversized() { return oversized.get(); }
    public long forged() { return forged.get(); }
  }

  /** Size an oversized object is grown to: 3 GiB, past any buffer (a sparse file: no disk is used). */
  public static final long OVERSIZED_BYTES = 3L << 30;

  private final StorageBackend delegate;
  private final int rank;
  private final double corrupt;
  private final double missing;
  private final double backendError;
  private final double oversized;
  private final double forged;
  /** The file holding a key's object, or null when the store is not a file store (no oversized fault). */
  private final Function<PageKey, Path> objectFile;
  private final SplittableRandom rnd;
  private final Tally tally;

  /**
   * Wraps {@code delegate} for {@code rank}; each probability is per call ({@code corrupt}, {@code missing}:
   * per read; {@code backendError}: per read or write).
   */
  public FaultyStorageBackend(StorageBackend delegate, int rank, long seed, double corrupt, double missing,
      double backendError, Tally tally) {
    this(delegate, rank, seed, corrupt, missing, backendError, 0, 0, null, tally);
  }

  /**
   * As the other constructor, with objects damaged in the store before a read: {@code oversized} (per read;
   * needs {@code objectFile}, the file of a key's object) and {@code forged} (per read).
   */
  public FaultyStorageBackend(StorageBackend delegate, int rank, long seed, double corrupt, double missing,
      double backendError, double oversized, double forged, Function<PageKey, Path> objectFile, Tally tally) {
    if (oversized > 0 && objectFile == null) {
      throw new IllegalArgumentException("the oversized fault needs a file store");
    }
    this.oversized = oversized;
    this.forged = forged;
    this.objectFile = objectFile;
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
    if (x < corrupt + missing + oversized) {
      if (grow(key)) {
        tally.oversized.incrementAndGet();
      }
    } else if (x < corrupt + missing + oversized + forged) {
      if (forge(key, dst.remaining())) {
        tally.forged.incrementAndGet();
      }
    }
    return delegate.get(key, dst);
  }

  /** Grows the key's object file to {@link #OVERSIZED_BYTES} (sparse); false when there is no object. */
  private boolean grow(PageKey key) {
    Path file = objectFile.apply(key);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {1}), OVERSIZED_BYTES - 1);
      return true;
    } catch (java.nio.file.NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("oversized fault: cannot grow " + file, e);
    }
  }

  /**
   * Forges the key's object: reads it, changes one payload byte and writes it back through the store, which
   * computes a valid checksum and names the key. False when there is no readable object to forge.
   */
  private boolean forge(PageKey key, int room) {
    ByteBuffer page = ByteBuffer.allocate(room);
    try {
      if (!delegate.get(key, page) || page.position() == 0) {
        return false;
      }
    } catch (CorruptPageException e) {
      return false; // already damaged: the read that follows finds it so
    }
    page.flip();
    int at = rnd.nextInt(page.remaining());
    page.put(at, (byte) (page.get(at) ^ 0x5a));
    delegate.put(key, page);
    return true;
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
