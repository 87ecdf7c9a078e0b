package dev.hicachesync.storage;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link StorageBackend} in memory: the simulator's and tests' L3.
 *
 * <p>Why not a map of byte-array copies (what this was): an unbounded replay stores millions of small
 * pages, and each was four to six heap objects (the map's node, the key, its strings, the copy) that every
 * young collection copied and every marking traced; in the Mooncake replay that was a fifth of the
 * profile and a third of the wall time in collection pauses. Here a stored page is a few slots
 * of primitive arrays: its key as the four longs of its SHA-256 hash plus a number for its suffix, in an
 * open-addressing table, and its bytes in large shared chunks ({@link Stripe}).
 *
 * <p>Thread-safe: the keys are spread over {@link #STRIPES} stripes, each guarded by its own monitor; an
 * object is written and read whole under its stripe's monitor, so a reader sees the old or the new copy.
 */
public final class MemoryStorageBackend implements StorageBackend {
  /** Independent stripes: ranks' prefetch, I/O and backup threads rarely meet on one. */
  private static final int STRIPES = 64;

  private final Stripe[] stripes = new Stripe[STRIPES];
  /** Key-space numbers of the suffixes seen (a handful: one per rank or stage), from 1. */
  private final ConcurrentHashMap<String, Integer> suffixIds = new ConcurrentHashMap<>();
  private final AtomicInteger lastSuffixId = new AtomicInteger();

  /** Creates an empty store. */
  public MemoryStorageBackend() {
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new Stripe();
    }
  }

  @Override
  public boolean exists(PageKey key) {
    Integer sfx = suffixIds.get(key.suffix());
    if (sfx == null) {
      return false;
    }
    long[] k = words(key);
    Stripe s = stripe(k);
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
    Stripe s = stripe(k);
    synchronized (s) {
      int e = s.find(k, sfx);
      if (e < 0) {
        return false;
      }
      int len = s.length(e);
      if (dst.remaining() < len) {
        throw new CorruptPageException(
            "page " + key + " holds " + len + " bytes, destination has room for " + dst.remaining());
      }
      dst.put(s.chunks[s.chunk(e)], s.offset(e), len);
      return true;
    }
  }

  @Override
  public void put(PageKey key, ByteBuffer src) {
    int sfx = suffixIds.computeIfAbsent(key.suffix(), x -> lastSuffixId.incrementAndGet());
    long[] k = words(key);
    Stripe s = stripe(k);
    synchronized (s) {
      s.put(k, sfx, src);
    }
  }

  /** Returns the number of stored objects. */
  public int size() {
    int n = 0;
    for (Stripe s : stripes) {
      synchronized (s) {
        n += s.count;
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
    Stripe s = stripe(k);
    synchronized (s) {
      return s.remove(k, sfx);
    }
  }

  @Override
  public String describe() {
    return "memory (" + size() + " objects)";
  }

  private Stripe stripe(long[] k) {
    return stripes[(int) (k[0] >>> 58)]; // the hash's leading bits: uniform, and apart from the probe's
  }

  /** The key's hash as four longs (every {@link PageKey} hash is SHA-256, see its factories); shared, read only. */
  private static long[] words(PageKey key) {
    return key.hashWords();
  }

  /**
   * One stripe: an open-addressing table (linear probing, tombstones) of keys, and the objects' bytes in
   * chunks. A removed object's bytes go to a free list of its length and are reused by the next object of
   * that length (a bounded L3 evicts and writes pages of one size). Guarded by its own monitor.
   *
   * <p>Chunks double from {@link #FIRST_CHUNK} to {@link #LAST_CHUNK}: a small store stays small, and a large
   * one's chunks are big enough for the collector to allocate them outside the young generation (G1's
   * humongous objects, half a region and more), so the bytes of millions of pages are never copied between
   * survivor spaces; with 256 KiB chunks the collection pauses of the whole Mooncake replay were as long as
   * with one array per page (33.5 s vs 34.7 s at load 30).
   */
  private static final class Stripe {
    private static final int FIRST_CHUNK = 1 << 14;
    private static final int LAST_CHUNK = 1 << 23;
    private static final int EMPTY = 0;
    private static final int DELETED = -1;
    /**
     * Longs per table slot: {@code [len << 32 | suffix number (or EMPTY / DELETED), the hash's four words,
     * chunk << 32 | offset]}. Why one array: a probe reads a slot's suffix and key together (one or two
     * cache lines), and a put writes where the bytes go in the same lines; with one array per field a put
     * of a new key missed the cache five times, the largest cost of the Mooncake replay's L3.
     */
    private static final int SLOT = 6;

    /** The slots, {@link #SLOT} longs each; the slot count is a power of two. */
    private long[] table = new long[SLOT * 16];
    private int count;
    private int used; // live + deleted slots

    private byte[][] chunks = new byte[4][];
    private int chunkCount;
    /** The shared chunk new small objects go to (-1: none yet), its size and where its free space starts. */
    private int current = -1;
    private int currentSize;
    private int tail;
    /**
     * Freed byte ranges, one stack per length (a handful of lengths at most: usually one): {@code
     * freeLength[i]}'s ranges are {@code freeRanges[i][0 .. freeCount[i])}, each packed chunk << 32 | offset.
     */
    private int[] freeLength = new int[0];
    private long[][] freeRanges = new long[0][];
    private int[] freeCount = new int[0];

    private int slots() {
      return table.length / SLOT;
    }

    private int suffix(int e) {
      return (int) table[SLOT * e];
    }

    int length(int e) {
      return (int) (table[SLOT * e] >>> 32);
    }

    int chunk(int e) {
      return (int) (table[SLOT * e + 5] >>> 32);
    }

    int offset(int e) {
      return (int) table[SLOT * e + 5];
    }

    private void setMeta(int e, int len, int sfx) {
      table[SLOT * e] = (long) len << 32 | (sfx & 0xffffffffL);
    }

    private void setPlace(int e, int chunk, int offset) {
      table[SLOT * e + 5] = (long) chunk << 32 | (offset & 0xffffffffL);
    }

    int find(long[] k, int sfx) {
      int mask = slots() - 1;
      long[] t = table;
      for (int i = slot(k, sfx, mask); ; i = (i + 1) & mask) {
        int b = SLOT * i;
        int s = (int) t[b];
        if (s == EMPTY) {
          return -1;
        }
        if (s == sfx && t[b + 1] == k[0] && t[b + 2] == k[1] && t[b + 3] == k[2] && t[b + 4] == k[3]) {
          return i;
        }
      }
    }

    /**
     * Why one probe: a put of a new key (nearly every put of a replay) probed the table twice, to find the key
     * absent and then for the slot to take, and the probe's first access misses the cache in a table far larger
     * than it; {@link #probe} answers both.
     */
    void put(long[] k, int sfx, ByteBuffer src) {
      int len = src.remaining();
      int e = probe(k, sfx);
      int at = -1; // the slot insertSlot would take, when the probe found it
      if (e < 0) {
        at = ~e;
      } else if (length(e) != len) { // replaced by an object of another length: re-inserted below
        release(e);
        setMeta(e, 0, DELETED);
        count--;
        e = -1;
      }
      if (e < 0) {
        int n = slots();
        if (used + 1 > n * 5 / 8) {
          rehash(count + 1 > n / 4 ? n * 2 : n);
          at = -1;
        }
        e = at >= 0 ? claim(at, k, sfx) : insertSlot(k, sfx);
        setMeta(e, len, sfx);
        allocate(e, len);
        count++;
      }
      src.get(chunks[chunk(e)], offset(e), len);
    }

    /**
     * Returns the key's slot, or, when it is absent, {@code ~slot} of the slot {@link #insertSlot} would take
     * for it (the first deleted or empty slot of its probe sequence).
     */
    private int probe(long[] k, int sfx) {
      int mask = slots() - 1;
      long[] t = table;
      int free = -1;
      for (int i = slot(k, sfx, mask); ; i = (i + 1) & mask) {
        int b = SLOT * i;
        int s = (int) t[b];
        if (s == EMPTY) {
          return ~(free >= 0 ? free : i);
        }
        if (s == DELETED) {
          if (free < 0) {
            free = i;
          }
        } else if (s == sfx && t[b + 1] == k[0] && t[b + 2] == k[1] && t[b + 3] == k[2] && t[b + 4] == k[3]) {
          return i;
        }
      }
    }

    boolean remove(long[] k, int sfx) {
      int e = find(k, sfx);
      if (e < 0) {
        return false;
      }
      release(e);
      setMeta(e, 0, DELETED);
      count--;
      return true;
    }

    /**
     * The suffix goes through the multiplication with the key: the ranks' copies of one page share the hash
     * and differ only in their suffix, and a suffix XORed into the slot's low bits put them within a few
     * slots of each other, where linear probing piled them into clusters that every later probe walked.
     */
    private static int slot(long[] k, int sfx, int mask) {
      long h = (k[1] ^ sfx) * 0x9E3779B97F4A7C15L;
      return (int) (h >>> 32) & mask;
    }

    /**
     * Takes the first empty or deleted slot of the probe sequence (the key is known to be absent) and
     * writes the key there; the caller sets its length and place.
     */
    private int insertSlot(long[] k, int sfx) {
      int mask = slots() - 1;
      int i = slot(k, sfx, mask);
      while (suffix(i) != EMPTY && suffix(i) != DELETED) {
        i = (i + 1) & mask;
      }
      return claim(i, k, sfx);
    }

    /** Writes the key into the empty or deleted slot {@code i} and returns it; the caller sets length and place. */
    private int claim(int i, long[] k, int sfx) {
      if (suffix(i) == EMPTY) {
        used++;
      }
      setMeta(i, 0, sfx);
      System.arraycopy(k, 0, table, SLOT * i + 1, 4);
      return i;
    }

    private void rehash(int capacity) {
      long[] old = table;
      table = new long[SLOT * capacity];
      used = 0;
      long[] k = new long[4];
      for (int b = 0; b < old.length; b += SLOT) {
        int sfx = (int) old[b];
        if (sfx > 0) {
          System.arraycopy(old, b + 1, k, 0, 4);
          int i = insertSlot(k, sfx);
          table[SLOT * i] = old[b];
          table[SLOT * i + 5] = old[b + 5];
        }
      }
    }

    /** Gives slot {@code e} room for {@code len} bytes: a freed range of that length, or new space. */
    private void allocate(int e, int len) {
      int f = freeList(len);
      if (f >= 0 && freeCount[f] > 0) {
        long at = freeRanges[f][--freeCount[f]];
        table[SLOT * e + 5] = at; // packed as the slot's place
        return;
      }
      if (len > LAST_CHUNK / 4) { // a large object gets a chunk of its own
        setPlace(e, addChunk(new byte[len]), 0);
        return;
      }
      if (current < 0 || tail + len > currentSize) {
        currentSize = current < 0 ? FIRST_CHUNK : Math.min(LAST_CHUNK, 2 * currentSize);
        while (currentSize < len) {
          currentSize *= 2;
        }
        current = addChunk(new byte[currentSize]);
        tail = 0;
      }
      setPlace(e, current, tail);
      tail += len;
    }

    private int addChunk(byte[] c) {
      if (chunkCount == chunks.length) {
        chunks = Arrays.copyOf(chunks, 2 * chunkCount);
      }
      chunks[chunkCount] = c;
      return chunkCount++;
    }

    private void release(int e) {
      int len = length(e);
      int f = freeList(len);
      if (f < 0) {
        f = freeLength.length;
        freeLength = Arrays.copyOf(freeLength, f + 1);
        freeRanges = Arrays.copyOf(freeRanges, f + 1);
        freeCount = Arrays.copyOf(freeCount, f + 1);
        freeLength[f] = len;
        freeRanges[f] = new long[16];
      }
      if (freeCount[f] == freeRanges[f].length) {
        freeRanges[f] = Arrays.copyOf(freeRanges[f], 2 * freeCount[f]);
      }
      freeRanges[f][freeCount[f]++] = table[SLOT * e + 5]; // chunk << 32 | offset
    }

    /** Returns the index of the free list of {@code len}-byte ranges, or -1 when there is none. */
    private int freeList(int len) {
      for (int i = 0; i < freeLength.length; i++) {
        if (freeLength[i] == len) {
          return i;
        }
      }
      return -1;
    }
  }
}
