package dev.hicachesync.api;

import dev.hicachesync.controller.KvData;
import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.storage.PageKey;
import dev.hicachesync.storage.StorageBackend;
import dev.hicachesync.tier.DeviceTier;
import dev.hicachesync.tier.HostPool;
import java.nio.ByteBuffer;

/**
 * The data path of a rank built with {@link HiCacheRankBuilder#deviceTier}: the engine's KV bytes move
 * between its {@link DeviceTier} (JCuda or simulated), a host pool the rank allocates, and the L3 store.
 *
 * <p>Unlike the simulator's data path it checks no content: the bytes are the engine's, and the content
 * seeds the simulator checks against describe only the simulator's synthetic KV. So {@link #moves()} answers
 * false (the controller computes no seeds) although the bytes do move.
 *
 * <p>Threads: copies are issued on the scheduler thread (the tier's rule 1); {@link #store} runs on the
 * backup thread and {@link #load} on the prefetch I/O thread, each on host slots the ledger gives only to
 * that transfer; the host pool's page views and copies are absolute, and no buffer is shared between calls.
 */
final class TierData implements KvData {
  private final DeviceTier device;
  private final HostPool host;

  TierData(DeviceTier device, HostPool host) {
    this.device = device;
    this.host = host;
  }

  @Override
  public boolean moves() {
    return false; // no seeds: see the class javadoc
  }

  @Override
  public TransferEvent toHost(TransferEvent timing, int[] devicePages, int[] hostPages, long[] seeds) {
    return both(timing, device.copyToHost(devicePages, host, hostPages));
  }

  @Override
  public TransferEvent fromHost(TransferEvent timing, int[] hostPages, int[] devicePages, long[] seeds) {
    return both(timing, device.copyFromHost(host, hostPages, devicePages));
  }

  @Override
  public void store(StorageBackend storage, PageKey key, int hostPage, long seed) {
    storage.put(key, page(hostPage));
  }

  @Override
  public boolean load(StorageBackend storage, PageKey key, int hostPage, long seed) {
    if (host.isPageContiguous()) {
      return storage.get(key, host.pageView(hostPage)); // page_first: straight into the slot
    }
    ByteBuffer b = ByteBuffer.allocate(host.pageBytes());
    if (!storage.get(key, b)) {
      return false;
    }
    host.writePage(hostPage, b.flip());
    return true;
  }

  @Override
  public void checkHost(int[] hostPages, int from, int to, long[] seeds, String what) {
    // Nothing to check against: the engine's KV has no seeds.
  }

  private ByteBuffer page(int slot) {
    if (host.isPageContiguous()) {
      return host.pageView(slot);
    }
    ByteBuffer b = ByteBuffer.allocate(host.pageBytes());
    host.readPage(slot, b);
    return b.flip();
  }

  /** Done when the environment's timing and the tier's copy both are. */
  private static TransferEvent both(TransferEvent timing, TransferEvent copy) {
    return new TransferEvent() {
      @Override
      public boolean isDone() {
        return timing.isDone() && copy.isDone();
      }

      @Override
      public void await() {
        timing.await();
        copy.await();
      }
    };
  }
}
