package dev.hicachesync.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The contract every {@link StorageBackend} meets; one tiny subclass per backend. */
abstract class StorageBackendContractTest {
  protected StorageBackend store;

  protected abstract StorageBackend newBackend() throws Exception;

  @BeforeEach
  void open() throws Exception {
    store = newBackend();
  }

  static ByteBuffer bytes(int seed, int n) {
    ByteBuffer b = ByteBuffer.allocate(n);
    for (int i = 0; i < n; i++) {
      b.put((byte) (seed + i * 13));
    }
    return b.flip();
  }

  static List<PageKey> chain(int pages) {
    List<PageKey> keys = new ArrayList<>();
    PageKey prev = null;
    for (int p = 0; p < pages; p++) {
      prev = PageKey.chain(prev, new int[] {p, p + 1, p + 2});
      keys.add(prev);
    }
    return keys;
  }

  @Test
  void roundTrip() {
    PageKey k = PageKey.first(new int[] {1, 2});
    assertFalse(store.exists(k));
    assertFalse(store.get(k, ByteBuffer.allocate(64)));
    ByteBuffer src = bytes(3, 64);
    store.put(k, src);
    assertEquals(0, src.remaining(), "put consumes the source");
    assertTrue(store.exists(k));
    ByteBuffer dst = ByteBuffer.allocateDirect(64);
    assertTrue(store.get(k, dst));
    assertEquals(bytes(3, 64), dst.flip());
    assertFalse(store.describe().isEmpty());
  }

  @Test
  void overwriteReplacesTheWholeObject() {
    PageKey k = PageKey.first(new int[] {7});
    store.put(k, bytes(1, 100));
    store.put(k, bytes(2, 40));
    ByteBuffer dst = ByteBuffer.allocate(100);
    assertTrue(store.get(k, dst));
    assertEquals(bytes(2, 40), dst.flip());
  }

  @Test
  void removeDeletesTheObjectOnce() {
    PageKey k = PageKey.first(new int[] {4});
    assertFalse(store.remove(k), "nothing to remove yet");
    store.put(k, bytes(5, 16));
    assertTrue(store.remove(k));
    assertFalse(store.exists(k));
    assertFalse(store.get(k, ByteBuffer.allocate(16)));
    assertFalse(store.remove(k), "already gone");
  }

  @Test
  void leadingHitsCountsOnlyTheLeadingRun() {
    List<PageKey> keys = chain(6);
    for (int i : new int[] {0, 1, 2, 4, 5}) {
      store.put(keys.get(i), bytes(i, 8));
    }
    assertEquals(3, store.leadingHits(keys));
    assertEquals(0, store.leadingHits(keys.subList(3, 6)));
    assertEquals(0, store.leadingHits(List.of()));
  }

  @Test
  void suffixesAreSeparateKeySpaces() {
    PageKey k = PageKey.first(new int[] {9});
    store.put(k.withSuffix("pp0"), bytes(1, 8));
    assertTrue(store.exists(k.withSuffix("pp0")));
    assertFalse(store.exists(k.withSuffix("pp1")));
    assertFalse(store.exists(k));
  }
}
