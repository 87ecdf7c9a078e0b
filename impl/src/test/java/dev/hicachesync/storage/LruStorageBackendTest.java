package dev.hicachesync.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LruStorageBackend}: the contract (with room to spare), then eviction: the capacity holds, the
 * least recently used key goes first, and a put or a read makes a key recent while a hit query does not.
 */
class LruStorageBackendTest extends StorageBackendContractTest {
  @TempDir Path tmp;

  @Override
  protected StorageBackend newBackend() {
    return new LruStorageBackend(new MemoryStorageBackend(), 1_000);
  }

  /** A store of {@code capacity} over a memory map the test can inspect. */
  private record Bounded(LruStorageBackend lru, MemoryStorageBackend under) {
    static Bounded of(int capacity) {
      MemoryStorageBackend m = new MemoryStorageBackend();
      return new Bounded(new LruStorageBackend(m, capacity), m);
    }

    void put(PageKey k) {
      lru.put(k, bytes(k.hashCode(), 8));
    }

    boolean read(PageKey k) {
      return lru.get(k, ByteBuffer.allocate(8));
    }
  }

  @Test
  void neverHoldsMoreThanItsCapacityAndDeletesWhatItEvicts() {
    Bounded b = Bounded.of(3);
    List<PageKey> keys = chain(10);
    for (int i = 0; i < keys.size(); i++) {
      b.put(keys.get(i));
      assertEquals(Math.min(i + 1, 3), b.lru().size(), "after put " + i);
      assertEquals(b.lru().size(), b.under().size(), "evicted objects are deleted from the delegate");
    }
    assertEquals(7, b.lru().evicted());
    assertEquals(keys.subList(7, 10), b.lru().lruOrder());
    assertFalse(b.lru().exists(keys.get(0)));
    assertFalse(b.read(keys.get(0)));
    assertTrue(b.read(keys.get(9)));
  }

  @Test
  void evictsTheLeastRecentlyPutFirst() {
    Bounded b = Bounded.of(2);
    List<PageKey> k = chain(3);
    b.put(k.get(0));
    b.put(k.get(1));
    b.put(k.get(2));
    assertEquals(List.of(k.get(1), k.get(2)), b.lru().lruOrder(), "k0 was the oldest");
  }

  @Test
  void aReadMakesAKeyRecent() {
    Bounded b = Bounded.of(2);
    List<PageKey> k = chain(3);
    b.put(k.get(0));
    b.put(k.get(1));
    assertTrue(b.read(k.get(0)));
    b.put(k.get(2));
    assertEquals(List.of(k.get(0), k.get(2)), b.lru().lruOrder(), "k1 was the least recently used");
  }

  @Test
  void reWritingAKeyMakesItRecent() {
    Bounded b = Bounded.of(2);
    List<PageKey> k = chain(3);
    b.put(k.get(0));
    b.put(k.get(1));
    b.put(k.get(0));
    assertEquals(2, b.lru().size(), "a re-write is no new object");
    b.put(k.get(2));
    assertEquals(List.of(k.get(0), k.get(2)), b.lru().lruOrder());
    assertEquals(1, b.lru().evicted());
  }

  @Test
  void aHitQueryDoesNotMakeAKeyRecent() {
    Bounded b = Bounded.of(2);
    List<PageKey> k = chain(3);
    b.put(k.get(0));
    b.put(k.get(1));
    assertTrue(b.lru().exists(k.get(0)));
    assertEquals(2, b.lru().leadingHits(k));
    b.put(k.get(2));
    assertEquals(List.of(k.get(1), k.get(2)), b.lru().lruOrder(), "exists/leadingHits read no data");
  }

  @Test
  void theSameCallsEvictTheSameKeys() {
    List<PageKey> k = chain(12);
    List<List<PageKey>> runs = new java.util.ArrayList<>();
    for (int run = 0; run < 2; run++) {
      Bounded b = Bounded.of(4);
      for (int i = 0; i < 40; i++) {
        PageKey key = k.get((i * 7) % k.size());
        if (i % 3 == 0) {
          b.read(key);
        } else {
          b.put(key);
        }
      }
      runs.add(b.lru().lruOrder());
    }
    assertEquals(runs.get(0), runs.get(1));
  }

  @Test
  void anObjectDeletedBehindItsBackIsAMissNotAHit() {
    Bounded b = Bounded.of(2);
    PageKey k = chain(1).get(0);
    b.put(k);
    b.under().remove(k);
    assertFalse(b.read(k));
    assertFalse(b.lru().exists(k), "forgotten after the failed read");
  }

  @Test
  void boundsAFileStoreOnDiskToo() {
    FileStorageBackend files = new FileStorageBackend(tmp.resolve("shard"));
    LruStorageBackend lru = new LruStorageBackend(files, 2);
    List<PageKey> k = chain(3);
    for (PageKey key : k) {
      lru.put(key, bytes(1, 8));
    }
    assertFalse(files.exists(k.get(0)), "the evicted file is gone");
    assertTrue(files.exists(k.get(1)) && files.exists(k.get(2)));
  }

  @Test
  void aCapacityBelowOnePageIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new LruStorageBackend(new MemoryStorageBackend(), 0));
    assertThrows(IllegalArgumentException.class, () -> new LruStorageBackend(new MemoryStorageBackend(), -5));
  }
}
