package dev.hicachesync.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The forwarding base hands each call to the inner store, the S7 query too: an inner store that answers {@code
 * leadingHits} as one call (as {@link LruStorageBackend} does, under its lock) is asked as one call, not page by
 * page through {@code exists}.
 */
class ForwardingStorageBackendTest {

  /** An inner store that records the calls it gets. */
  private static final class Recording implements StorageBackend {
    final List<String> calls = new ArrayList<>();

    @Override
    public boolean exists(PageKey key) {
      calls.add("exists");
      return true;
    }

    @Override
    public int leadingHits(List<PageKey> keys) {
      calls.add("leadingHits " + keys.size());
      return keys.size();
    }

    @Override
    public boolean get(PageKey key, ByteBuffer dst) {
      calls.add("get");
      return true;
    }

    @Override
    public void put(PageKey key, ByteBuffer src) {
      calls.add("put");
    }

    @Override
    public boolean remove(PageKey key) {
      calls.add("remove");
      return true;
    }

    @Override
    public String describe() {
      return "recording";
    }
  }

  @Test
  void everyCallReachesTheInnerStoreAsItWasMade() {
    Recording inner = new Recording();
    StorageBackend wrapped = new ForwardingStorageBackend(inner) {};
    PageKey first = PageKey.first(new int[] {1, 2});
    List<PageKey> keys = List.of(first, PageKey.chain(first, new int[] {3, 4}));
    assertEquals(keys.size(), wrapped.leadingHits(keys));
    wrapped.exists(keys.get(0));
    wrapped.get(keys.get(0), ByteBuffer.allocate(8));
    wrapped.put(keys.get(0), ByteBuffer.allocate(8));
    wrapped.remove(keys.get(0));
    assertEquals(List.of("leadingHits " + keys.size(), "exists", "get", "put", "remove"), inner.calls);
  }
}
