package dev.hicachesync.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class MemoryStorageBackendTest extends StorageBackendContractTest {
  @Override
  protected StorageBackend newBackend() {
    return new MemoryStorageBackend();
  }

  /**
   * Keys whose hashes differ in one hex digit of one of the four words the table keeps are different
   * objects (they share a stripe, and for the first and last word a probe sequence: each word is compared).
   */
  @Test
  void keysDifferingInOneHashWordAreDifferentObjects() {
    for (int word = 0; word < 4; word++) {
      MemoryStorageBackend store = new MemoryStorageBackend();
      String base = "0123456789abcdef".repeat(4);
      int digit = 16 * word + 15;
      PageKey a = PageKey.ofHash(base);
      PageKey b = PageKey.ofHash(base.substring(0, digit) + "0" + base.substring(digit + 1));
      PageKey c = PageKey.ofHash(base.substring(0, digit) + "1" + base.substring(digit + 1));
      store.put(a, ByteBuffer.wrap(new byte[] {1, 1}));
      store.put(b, ByteBuffer.wrap(new byte[] {2, 2}));
      ByteBuffer got = ByteBuffer.allocate(2);
      assertTrue(store.get(a, got));
      assertEquals(1, got.get(0), "word " + word);
      got.clear();
      assertTrue(store.get(b, got));
      assertEquals(2, got.get(0), "word " + word);
      assertFalse(store.exists(c), "word " + word);
      assertEquals(2, store.size());
    }
  }

  /**
   * Copies of one page with equal bytes are stored once, and each stays the bytes last put under its own key:
   * writing one over (same length, other bytes; another length), removing one and putting it back leave the
   * others as they were.
   */
  @Test
  void equalCopiesOfAPageStayIndependent() {
    MemoryStorageBackend store = new MemoryStorageBackend();
    PageKey page = PageKey.first(new int[] {7, 8});
    PageKey a = page.withSuffix("tp0");
    PageKey b = page.withSuffix("tp1");
    PageKey c = page.withSuffix("tp2");
    byte[] x = {1, 2, 3, 4, 5, 6, 7, 8};
    byte[] y = {9, 9, 9, 9, 9, 9, 9, 9};
    store.put(a, ByteBuffer.wrap(x));
    store.put(b, ByteBuffer.wrap(x.clone()));
    store.put(c, ByteBuffer.wrap(x.clone()));
    store.put(a, ByteBuffer.wrap(y)); // same length, other bytes: b and c keep x
    assertBytes(store, a, y);
    assertBytes(store, b, x);
    assertBytes(store, c, x);
    assertTrue(store.remove(b)); // c still holds x, and its range is not given to the next object
    store.put(page.withSuffix("tp3"), ByteBuffer.wrap(new byte[] {5, 5, 5, 5, 5, 5, 5, 5}));
    assertBytes(store, c, x);
    store.put(c, ByteBuffer.wrap(new byte[] {1, 2})); // another length
    store.put(b, ByteBuffer.wrap(y.clone())); // equal to a's
    store.put(b, ByteBuffer.wrap(x)); // and apart again
    assertBytes(store, a, y);
    assertBytes(store, b, x);
    assertBytes(store, c, new byte[] {1, 2});
    assertEquals(4, store.size());
  }

  private static void assertBytes(MemoryStorageBackend store, PageKey key, byte[] want) {
    ByteBuffer got = ByteBuffer.allocate(want.length + 4);
    assertTrue(store.get(key, got), key.toString());
    byte[] bytes = new byte[got.flip().remaining()];
    got.get(bytes);
    assertArrayEquals(want, bytes, key.toString());
  }
}
