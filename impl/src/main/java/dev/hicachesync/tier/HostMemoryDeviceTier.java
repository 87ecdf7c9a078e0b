package dev.hicachesync.tier;

import dev.hicachesync.env.LatencyModel;
import dev.hicachesync.env.ManualTicker;
import dev.hicachesync.env.TransferEvent;
import java.nio.ByteBuffer;

/**
 * A {@link DeviceTier} in host memory, for an engine without a GPU (a CPU engine, a test harness, the worked
 * example): {@code capacityPages} pages of {@code layers} × {@code layerBytes} bytes off the Java heap, which
 * the engine's forward pass reads and writes with {@link #read} and {@link #write}. Pass it to {@code
 * HiCacheRankBuilder.deviceTier}; the engine owns it and closes it.
 *
 * <p>Copies complete when they are first observed: the bytes of a write-through or a load-back move when the
 * rank's event check polls the copy or when something awaits it ({@code HiCacheRank.awaitLoaded}), never on
 * their own. So an engine that reads a loaded-back page before awaiting it reads the page's old bytes every
 * time, where on a GPU it would only sometimes; a loop that is correct here waits where a GPU needs it.
 * Thread: as every tier (its contract, rule 1): copies are issued by the scheduler thread, events polled or
 * awaited from any thread.
 */
public final class HostMemoryDeviceTier implements DeviceTier {
  private final SimulatedDeviceTier pages;

  /** Creates a zeroed pool of {@code capacityPages} pages, each {@code layers} × {@code layerBytes} bytes. */
  public HostMemoryDeviceTier(int capacityPages, int layers, int layerBytes) {
    if (capacityPages <= 0 || layers <= 0 || layerBytes <= 0) {
      throw new IllegalArgumentException("a host-memory device tier needs positive pages, layers and layer bytes, got "
          + capacityPages + " x " + layers + " x " + layerBytes);
    }
    // A clock that never moves and zero latency: every copy is due at once and completes when observed.
    this.pages = new SimulatedDeviceTier(capacityPages, layers, layerBytes, new ManualTicker(), LatencyModel.zero(),
        0, "host memory");
  }

  @Override
  public int capacityPages() {
    return pages.capacityPages();
  }

  @Override
  public int layers() {
    return pages.layers();
  }

  @Override
  public int layerBytes() {
    return pages.layerBytes();
  }

  @Override
  public void write(int page, ByteBuffer src) {
    pages.write(page, src);
  }

  @Override
  public void read(int page, ByteBuffer dst) {
    pages.read(page, dst);
  }

  @Override
  public TransferEvent copyToHost(int[] devicePages, HostPool host, int[] hostPages) {
    return pages.copyToHost(devicePages, host, hostPages);
  }

  @Override
  public TransferEvent copyFromHost(HostPool host, int[] hostPages, int[] devicePages) {
    return pages.copyFromHost(host, hostPages, devicePages);
  }

  @Override
  public String describe() {
    return "host-memory device tier: " + capacityPages() + " pages x " + layers() + " layers x " + layerBytes() + " B";
  }

  @Override
  public void close() {
    pages.close();
  }

  @Override
  public String toString() {
    return describe();
  }
}
