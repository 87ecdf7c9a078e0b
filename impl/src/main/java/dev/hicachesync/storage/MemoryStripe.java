package dev.hicachesync.storage;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One stripe of a {@link MemoryStorageBackend}: an open-addressing table (linear probing, tombstones) of
 * page hashes, each slot holding every suffix's copy of that page (a <i>lane</i> per suffix number), and
 * the objects' bytes in chunks. A removed object's bytes go to a free list of its length and are reused by
 * the next object of that length (a bounded L3 evicts and writes pages of one size). Not thread-safe: the
 * backend guards each stripe by its own monitor.
 *
 * <p>Why copies share bytes: the ranks of a domain store the same page under their own suffixes, and a
 * page's bytes are a function of its tokens ({@code PageContent}), so the copies are nearly always equal;
 * stored once each, a replay keeps one rank's bytes instead of every rank's (the figures are in
 * docs/reference/measurements.md). A lane whose bytes equal another lane's of the same slot points at that
 * lane's range; a range is written over in place only by its one lane.
 *
 * <p>Why a slot per hash and not per (hash, suffix): the ranks of a domain store the same pages, each under
 * its own suffix, a few microseconds apart. With a slot per key each rank's put probed a different place of
 * a table far larger than the caches (a miss or two each, a third of a 4-rank replay's profile); with the
 * copies in one slot the first rank's probe brings the line in and the others find it cached. Keeping the
 * copies adjacent by giving them neighbouring home slots (the layout before this one) made linear probing
 * pile them into clusters that every later probe walked.
 *
 * <p>Chunks double from {@link #FIRST_CHUNK} to {@link #LAST_CHUNK}: a small store stays small, and a large
 * one keeps its pages' bytes in a few large arrays, so the collector moves bytes, not an object per page.
 * Where a chunk lives depends on the collector: G1 allocates one of half a region or more outside the young
 * generation (a humongous object) and never copies it; the parallel collector, which the launcher picks,
 * allocates an array of any size in eden while it fits, so a chunk is copied between the survivor spaces
 * until it is tenured. Why the chunks stay on the heap all the same: memory outside it gets no transparent
 * huge pages (only the heap asks for them), and faulting a large store in 4 KiB at a time costs about what
 * those copies do.
 */
final class MemoryStripe {
  private static final int FIRST_CHUNK = 1 << 14;
  private static final int LAST_CHUNK = 1 << 23;
  /** A slot's state word: never used, or used once and emptied (a tombstone); else its live lane count. */
  private static final long EMPTY = 0;
  private static final long DELETED = -1;
  /** Longs before the lanes: the state word and the hash's four words. */
  private static final int HEAD = 5;

  /**
   * The slots, {@link #width} longs each: {@code [state, the hash's four words, then per lane: length + 1
   * (0: this suffix has no copy), chunk << 32 | offset]}; lane {@code i} is suffix number {@code i + 1}.
   * Why one array: a probe reads a slot's state and hash together, and a put writes where its bytes go in
   * the same lines; with one array per field a put of a new key missed the cache five times.
   */
  private long[] table;
  /** Suffix numbers a slot has room for; grows (the table is rebuilt wider) when a larger one comes. */
  private int lanes = 1;
  private int width = HEAD + 2;
  /** Live objects, live slots, and live plus deleted slots. */
  private int count;
  private int hashes;
  private int used;

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

  MemoryStripe() {
    table = new long[width * 16];
  }

  /** Returns the number of stored objects. */
  int count() {
    return count;
  }

  /**
   * Returns where the copy for suffix number {@code sfx} of the page with hash {@code k} is described (the
   * index of its lane in the table, for {@link #length} and {@link #chunk}), or -1 when there is none.
   */
  int find(long[] k, int sfx) {
    if (sfx > lanes) {
      return -1;
    }
    int s = probe(k);
    if (s < 0) {
      return -1;
    }
    int lane = lane(s, sfx);
    return table[lane] != 0 ? lane : -1;
  }

  /** Returns the length of the object whose lane is at {@code lane}. */
  int length(int lane) {
    return (int) table[lane] - 1;
  }

  /** Returns the chunk holding that object's bytes. */
  byte[] chunk(int lane) {
    return chunks[(int) (table[lane + 1] >>> 32)];
  }

  /** Returns the offset of its bytes in {@link #chunk}. */
  int offset(int lane) {
    return (int) table[lane + 1];
  }

  /**
   * Stores the remaining bytes of {@code src} as suffix number {@code sfx}'s copy of page {@code k}. Bytes
   * equal to another suffix's copy of the same page are not stored again: the lane points at that copy's
   * range, which is then never written over in place and is freed with the last lane that points at it.
   */
  void put(long[] k, int sfx, ByteBuffer src) {
    if (sfx > lanes) {
      widen(sfx);
    }
    int len = src.remaining();
    int s = probe(k);
    if (s < 0) {
      if (used + 1 > slots() * 5 / 8) {
        rehash(hashes + 1 > slots() / 4 ? slots() * 2 : slots(), lanes);
        s = probe(k);
      }
      s = claim(~s, k);
    }
    int lane = lane(s, sfx);
    if (table[lane] != 0) {
      if (sameBytes(lane, src)) { // the same copy again
        src.position(src.position() + len);
        return;
      }
      if (length(lane) == len && !shared(s, lane)) { // written over in its own range
        src.get(chunk(lane), offset(lane), len);
        return;
      }
      detach(s, lane); // another length, or other bytes than the copies it shares its range with
    }
    int twin = equalCopy(s, lane, src);
    table[lane] = len + 1L;
    if (twin >= 0) {
      table[lane + 1] = table[twin + 1];
      src.position(src.position() + len);
    } else {
      allocate(lane, len);
      src.get(chunk(lane), offset(lane), len);
    }
    table[width * s]++;
    count++;
  }

  /** Deletes suffix number {@code sfx}'s copy of page {@code k}; returns whether there was one. */
  boolean remove(long[] k, int sfx) {
    int lane = find(k, sfx);
    if (lane < 0) {
      return false;
    }
    int slot = slotOf(lane);
    detach(slot, lane);
    int state = slot * width;
    if (table[state] == 0) { // the page's last copy: the slot becomes a tombstone
      table[state] = DELETED;
      hashes--;
    }
    return true;
  }

  /** Empties {@code lane} of slot {@code s} (a live copy), freeing its range unless another lane points at it. */
  private void detach(int s, int lane) {
    if (!shared(s, lane)) {
      release(lane);
    }
    table[lane] = 0;
    table[width * s]--;
    count--;
  }

  /**
   * Whether another lane of slot {@code s} points at the range of the live copy at {@code lane}. The lengths
   * are compared too: an empty object takes the place where the next object's bytes will start.
   */
  private boolean shared(int s, int lane) {
    long place = table[lane + 1];
    for (int l = width * s + HEAD; l < width * (s + 1); l += 2) {
      if (l != lane && table[l] == table[lane] && table[l + 1] == place) {
        return true;
      }
    }
    return false;
  }

  /** Returns a lane of slot {@code s}, not {@code lane}, whose copy equals what {@code src} has left; or -1. */
  private int equalCopy(int s, int lane, ByteBuffer src) {
    for (int l = width * s + HEAD; l < width * (s + 1); l += 2) {
      if (l != lane && table[l] == src.remaining() + 1L && sameBytes(l, src)) {
        return l;
      }
    }
    return -1;
  }

  /** Whether the live copy at {@code lane} equals the remaining bytes of {@code src} (its position unchanged). */
  private boolean sameBytes(int lane, ByteBuffer src) {
    int len = length(lane);
    return len == src.remaining() && ByteBuffer.wrap(chunk(lane), offset(lane), len).mismatch(src) < 0;
  }

  private int slots() {
    return table.length / width;
  }

  private int lane(int slot, int sfx) {
    return width * slot + HEAD + 2 * (sfx - 1);
  }

  private int slotOf(int lane) {
    return lane / width;
  }

  /**
   * Returns the slot of hash {@code k}, or, when it is absent, {@code ~slot} of the slot to take for it
   * (the first deleted or empty slot of its probe sequence). Why one probe for both: a put of a new page
   * (nearly every first put of a replay) would otherwise probe twice, and the probe's first access misses
   * the cache in a table far larger than it.
   */
  private int probe(long[] k) {
    int mask = slots() - 1;
    long[] t = table;
    int w = width;
    int free = -1;
    for (int i = home(k, mask); ; i = (i + 1) & mask) {
      int b = w * i;
      long state = t[b];
      if (state == EMPTY) {
        return ~(free >= 0 ? free : i);
      }
      if (state == DELETED) {
        if (free < 0) {
          free = i;
        }
      } else if (t[b + 1] == k[0] && t[b + 2] == k[1] && t[b + 3] == k[2] && t[b + 4] == k[3]) {
        return i;
      }
    }
  }

  /** The hash's second word, multiplied: the first picks the stripe, so the slot depends on other bits. */
  private static int home(long[] k, int mask) {
    return (int) ((k[1] * 0x9E3779B97F4A7C15L) >>> 32) & mask;
  }

  /** Writes hash {@code k} into the empty or deleted slot {@code i} with no lanes yet, and returns it. */
  private int claim(int i, long[] k) {
    int b = width * i;
    if (table[b] == EMPTY) {
      used++;
    }
    hashes++;
    table[b] = 0; // live, no lanes yet: the caller adds one
    System.arraycopy(k, 0, table, b + 1, 4);
    return i;
  }

  /** Rebuilds the table with room for suffix numbers up to {@code sfx} (twice as many lanes, at least). */
  private void widen(int sfx) {
    rehash(slots(), Math.max(sfx, 2 * lanes));
  }

  private void rehash(int capacity, int newLanes) {
    long[] old = table;
    int oldWidth = width;
    lanes = newLanes;
    width = HEAD + 2 * newLanes;
    table = new long[width * capacity];
    used = 0;
    hashes = 0;
    long[] k = new long[4];
    for (int b = 0; b < old.length; b += oldWidth) {
      if (old[b] > 0) {
        System.arraycopy(old, b + 1, k, 0, 4);
        int s = claim(~probe(k), k);
        System.arraycopy(old, b, table, width * s, oldWidth); // the state, the hash and the old lanes
      }
    }
  }

  /** Gives the object at {@code lane} room for {@code len} bytes: a freed range of that length, or new space. */
  private void allocate(int lane, int len) {
    int f = freeList(len);
    if (f >= 0 && freeCount[f] > 0) {
      table[lane + 1] = freeRanges[f][--freeCount[f]]; // packed as the lane's place
      return;
    }
    if (len > LAST_CHUNK / 4) { // a large object gets a chunk of its own
      setPlace(lane, addChunk(new byte[len]), 0);
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
    setPlace(lane, current, tail);
    tail += len;
  }

  private void setPlace(int lane, int chunk, int offset) {
    table[lane + 1] = (long) chunk << 32 | (offset & 0xffffffffL);
  }

  private int addChunk(byte[] c) {
    if (chunkCount == chunks.length) {
      chunks = Arrays.copyOf(chunks, 2 * chunkCount);
    }
    chunks[chunkCount] = c;
    return chunkCount++;
  }

  private void release(int lane) {
    int len = length(lane);
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
    freeRanges[f][freeCount[f]++] = table[lane + 1]; // chunk << 32 | offset
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
