package dev.hicachesync.storage;

import java.nio.ByteBuffer;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;

/**
 * Operation catalogue for a {@link StorageBackend}, whose javadoc promises thread safety: the prefetch
 * thread queries and reads, the backup thread writes, concurrently. Three keys, one-byte objects whose
 * value names the write; a read returns a whole object or nothing. Checked against a map model
 * ({@link MapStorageSpec}, or {@link LruStorageSpec} for a bounded store).
 */
@Param(name = "key", gen = IntGen.class, conf = "0:2")
@Param(name = "value", gen = IntGen.class, conf = "1:3")
public abstract class AbstractStorageBackendLincheckTest {
  private static final PageKey[] KEYS = {
      PageKey.first(new int[] {1}), PageKey.first(new int[] {2}), PageKey.first(new int[] {3})};

  private final StorageBackend store;

  AbstractStorageBackendLincheckTest(StorageBackend store) {
    this.store = store;
  }

  @Operation(params = {"key", "value"})
  public void put(int key, int value) {
    store.put(KEYS[key], ByteBuffer.wrap(new byte[] {(byte) value}));
  }

  /** The object's value, or 0 when absent. */
  @Operation(params = {"key"})
  public int get(int key) {
    ByteBuffer dst = ByteBuffer.allocate(1);
    return store.get(KEYS[key], dst) ? dst.get(0) : 0;
  }

  @Operation(params = {"key"})
  public boolean exists(int key) {
    return store.exists(KEYS[key]);
  }

  @Operation(params = {"key"})
  public boolean remove(int key) {
    return store.remove(KEYS[key]);
  }
}
