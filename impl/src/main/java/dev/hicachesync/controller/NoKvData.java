package dev.hicachesync.controller;

import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.storage.PageKey;
import dev.hicachesync.storage.StorageBackend;
import java.nio.ByteBuffer;

/** {@link KvData#NONE}: timing events pass through, storage holds an 8-byte placeholder per page. */
final class NoKvData implements KvData {

  @Override
  public boolean moves() {
    return false;
  }

  @Override
  public TransferEvent toHost(TransferEvent timing, int[] devicePages, int[] hostPages, long[] seeds) {
    return timing;
  }

  @Override
  public TransferEvent fromHost(TransferEvent timing, int[] hostPages, int[] devicePages, long[] seeds) {
    return timing;
  }

  @Override
  public void store(StorageBackend storage, PageKey key, int hostPage, long seed) {
    ByteBuffer payload = ByteBuffer.allocate(8);
    payload.putLong(0, key.hashCode());
    storage.put(key, payload);
  }

  @Override
  public boolean load(StorageBackend storage, PageKey key, int hostPage, long seed) {
    return storage.get(key, ByteBuffer.allocate(64));
  }

  @Override
  public void checkHost(int[] hostPages, int from, int to, long[] seeds, String what) {}
}
