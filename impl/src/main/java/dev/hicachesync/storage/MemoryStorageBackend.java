package dev.hicachesync.storage;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link StorageBackend} in memory: the simulator's and tests' L3.
 *
 * <p>Why not a map of byte-array copies (what this was): an unbounded replay stores millions of small
 * pages, and each was four to six heap objects (the map's node, the key, its strings, the copy) that every
 * young collection copied and every marking traced; in the Mooncake replay that was a fifth of the
 * profile and a third of the wall time in collection pauses. Here a stored page is a few slots
 * of primitive arrays: the four longs of its SHA-256 hash in an open-addressing table, its suffix as
 * a lane of that hash's slot (the ranks' copies of one page share a slot), and its bytes in large shared
 * chunks ({@link MemoryStripe}).
 *
 * <p>Thread-safe: the keys are spread over {@link #STRIPES} stripes, each guarded by its own monitor; an
 * object is written and read whole under its stripe's monitor, so a reader sees the old or the new copy.
 */
public final class MemoryStorageBackend implements StorageBackend {
  /** Independent stripes: ranks' prefetch, I/O and backup threads rarely meet on one. */
  private static final int STRIPES = 64;

  private final MemoryStripe[] stripes = new MemoryStripe[STRIPES];
  /** Key-space numbers of the suffixes seen (a handful: one per rank or stage), from 1. */
  private final ConcurrentHashMap<String, Integer> suffixIds = new ConcurrentHashMap<>();
  private final AtomicInteger lastSuffixId = new AtomicInteger();

  /** Creates an empty store. */
  public MemoryStorageBackend() {
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new MemoryStripe();
    }
  }

  @Override
  public boolean exists(PageKey key) {
    Integer sfx = suffixIds.get(key.suffix());
    if (sfx == null) {
      return false;
    }
    long[] k = words(key);
    MemoryStripe s = stripe(k);
    synchronized (s) {
      return s.find(k, sfx) >= 0;
    }
  }

  @Override
  public boolean get(PageKey key, ByteBuffer dst) {
    Integer sfx = suffixIds.get(key.suffix());
    if (sfx == null) {
      return false;
    }
    long[] k = words(key);
    MemoryStripe s = stripe(k);
    synchronized (s) {
      int lane = s.find(k, sfx);
      if (lane < 0) {
        return false;
      }
      int len = s.length(lane);
      if (dst.remaining() < len) {
        throw new CorruptPageException(
            "page " + key + " holds " + len + " bytes, destination has room for " + dst.remaining());
      }
      dst.put(s.chunk(lane), s.offset(lane), len);
      return true;
    }
  }

  @Override
  public void put(PageKey key, ByteBuffer src) {
    int sfx = suffixIds.computeIfAbsent(key.suffix(), x -> lastSuffixId.incrementAndGet());
    long[] k = words(key);
    MemoryStripe s = stripe(k);
    synchronized (s) {
      s.put(k, sfx, src);
    }
  }

  /** Returns the number of stored objects. */
  public int size() {
    int n = 0;
    for (MemoryStripe s : stripes) {
      synchronized (s) {
        n += s.count();
      }
    }
    return n;
  }

  @Override
  public boolean remove(PageKey key) {
    Integer sfx = suffixIds.get(key.suffix());
    if (sfx == null) {
      return false;
    }
    long[] k = words(key);
    MemoryStripe s = stripe(k);
    synchronized (s) {
      return s.remove(k, sfx);
    }
  }

  @Override
  public String describe() {
    return "memory (" + size() + " objects)";
  }

  private MemoryStripe stripe(long[] k) {
    return stripes[(int) (k[0] >>> 58)]; // the hash's leading bits: uniform, and apart from the probe's
  }

  /** The key's hash as four longs (every {@link PageKey} hash is SHA-256, see its factories); shared, read only. */
  private static long[] words(PageKey key) {
    return key.hashWords();
  }
}
