package dev.hicachesync.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.hicachesync.testing.QtRuns;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link MemoryStorageBackend}'s own structure (an open-addressing table of hashes per stripe with a lane per
 * suffix, tombstones, rehashes and widenings, bytes in shared chunks with free lists by length) against a plain map: random sequences of puts of
 * several lengths (empty, small, one page, larger than a first chunk, larger than a quarter of the largest), overwrites with another length,
 * removes, gets and exists over enough keys and suffixes that every stripe grows and rehashes; half the
 * puts copy the bytes another suffix holds for the same page where there is one, so copies share a range
 * and are then written over, removed and put again one by one.
 */
class MemoryStorageBackendPropertyTest {
  private static final int KEYS = 2000;
  /** Suffixes come in one by one as the operations run: each new one past a stripe's lanes widens its table. */
  private static final String[] SUFFIXES = {"", "tp0", "tp1", "tp2", "pp1", "cp1"};
  private static final int[] LENGTHS = {0, 8, 64, 128, 128, 128};
  /** Larger than a first chunk (chunks grow to fit it), and larger than a quarter of the last (its own chunk). */
  private static final int LARGE = 70_000;
  private static final int HUGE = 2_100_000;
  private static final PageKey[] KEY = new PageKey[KEYS];

  static {
    for (int i = 0; i < KEYS; i++) {
      KEY[i] = PageKey.first(new int[] {i});
    }
  }

  @Test
  void behavesAsAMapOfCopies() {
    QtRuns.qt().forAll(longs().all(), integers().between(1, 4000))
        .checkAssert((seed, n) -> replay(operations(seed, n)));
  }

  /** {@code n} operations drawn from {@code seed} (a failure prints the two numbers, not the list). */
  private static List<Integer> operations(long seed, int n) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Integer> ops = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ops.add(r.nextInt(Integer.MAX_VALUE));
    }
    return ops;
  }

  /** Runs the operations {@code ops} encode on a store and on a map, comparing every answer. */
  private static void replay(List<Integer> ops) {
    MemoryStorageBackend store = new MemoryStorageBackend();
    Map<PageKey, byte[]> model = new HashMap<>();
    for (int step = 0; step < ops.size(); step++) {
      int op = ops.get(step);
      PageKey key = KEY[(op >>> 4) % KEYS].withSuffix(SUFFIXES[(op >>> 16) % SUFFIXES.length]);
      String at = "operation " + step + " on " + key;
      switch (op & 3) {
        case 0, 1 -> { // put (twice as often, so the store fills up)
          int len = (op >>> 20) % 256 == 0 ? HUGE : (op >>> 20) % 16 == 0 ? LARGE
              : LENGTHS[(op >>> 2 & 3) + (op >>> 25 & 1) * 2];
          byte[] bytes = (op >>> 28 & 1) == 1 ? anotherCopy(model, key) : null; // equal copies share bytes
          if (bytes == null) {
            bytes = content(step, len);
          }
          ByteBuffer src = ByteBuffer.wrap(bytes);
          store.put(key, src);
          assertEquals(0, src.remaining(), at + ": put consumes the source");
          model.put(key, bytes);
        }
        case 2 -> assertEquals(model.remove(key) != null, store.remove(key), at + ": remove");
        default -> {
          assertEquals(model.containsKey(key), store.exists(key), at + ": exists");
          ByteBuffer dst = ByteBuffer.allocate(model.containsKey(key) ? model.get(key).length + 16 : 16);
          boolean found = store.get(key, dst);
          assertEquals(model.containsKey(key), found, at + ": get");
          if (found) {
            byte[] got = new byte[dst.flip().remaining()];
            dst.get(got);
            assertArrayEquals(model.get(key), got, at + ": the bytes last put");
          }
        }
      }
      assertEquals(model.size(), store.size(), at + ": size");
    }
    for (Map.Entry<PageKey, byte[]> e : model.entrySet()) { // nothing overwritten behind the map's back
      ByteBuffer dst = ByteBuffer.allocate(e.getValue().length);
      assertTrue(store.get(e.getKey(), dst), "at the end: " + e.getKey());
      assertArrayEquals(e.getValue(), dst.array(), "at the end: " + e.getKey());
    }
  }

  /** A copy of the bytes stored for {@code key}'s page under another suffix, or null when there is none. */
  private static byte[] anotherCopy(Map<PageKey, byte[]> model, PageKey key) {
    for (String suffix : SUFFIXES) {
      byte[] b = suffix.equals(key.suffix()) ? null : model.get(key.withSuffix(suffix));
      if (b != null) {
        return b.clone();
      }
    }
    return null;
  }

  /** Bytes of operation {@code step}: every put writes different bytes. */
  private static byte[] content(int step, int len) {
    byte[] b = new byte[len];
    for (int i = 0; i < len; i++) {
      b[i] = (byte) (step * 31 + i * 7 + (i >>> 8));
    }
    return b;
  }

  /** Many pages: every stripe fills several chunks; each page reads back its own bytes. */
  @Test
  void manyPagesFillSeveralChunksAndReadBack() {
    MemoryStorageBackend store = new MemoryStorageBackend();
    int n = 300_000;
    PageKey prev = null;
    PageKey[] keys = new PageKey[n];
    for (int i = 0; i < n; i++) {
      prev = PageKey.chain(prev, new int[] {i, i >>> 3});
      keys[i] = prev;
      store.put(prev.withSuffix(i % 2 == 0 ? "a" : "b"), ByteBuffer.wrap(content(i, 128)));
    }
    assertEquals(n, store.size());
    ByteBuffer dst = ByteBuffer.allocate(128);
    for (int i = 0; i < n; i++) {
      dst.clear();
      assertTrue(store.get(keys[i].withSuffix(i % 2 == 0 ? "a" : "b"), dst), "page " + i);
      assertArrayEquals(content(i, 128), dst.array(), "page " + i);
      assertEquals(false, store.exists(keys[i].withSuffix(i % 2 == 0 ? "b" : "a")), "page " + i + " other suffix");
    }
  }
}
