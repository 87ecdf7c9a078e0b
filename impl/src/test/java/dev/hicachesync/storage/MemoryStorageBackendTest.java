package dev.hicachesync.storage;

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
}
