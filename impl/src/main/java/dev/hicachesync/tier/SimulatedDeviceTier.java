package dev.hicachesync.tier;

import dev.hicachesync.env.LatencyModel;
import dev.hicachesync.env.Ticker;
import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.env.TransferKind;
import java.nio.ByteBuffer;

/**
 * A {@link DeviceTier} in heap memory with a simulated copy engine: a copy issued at tick {@code t}
 * is done once {@code ticker.ticks() >= t + latency}, where the {@link LatencyModel} gives the latency.
 *
 * <p>Why the heap, not a direct buffer: the pool is one large array, which the collector allocates straight
 * into the old generation and never copies between young spaces, and the heap can be backed by transparent
 * huge pages (the launcher asks for them), whereas a direct buffer is touched 4 KiB at a time: a replay with
 * large device pools spent its kernel time on page faults (docs/reference/measurements.md, "Simulator and replay").
 *
 * <p>Copies complete independently (not in issue order), which is harsher than one CUDA stream and is
 * what the leading-ack counts of S1/S2 must cope with. The bytes move when completion is first observed
 * (see {@code SimulatedCopy}), or, after {@link #startCopyEngine}, by the tier's own copy-engine thread
 * once the clock reaches the ready tick, whichever comes first; the answers of {@code isDone()} depend on
 * the clock only either way, so a seeded run stays deterministic. Issue from the scheduler thread; events
 * may be polled from any thread.
 */
public final class SimulatedDeviceTier implements DeviceTier {
  private final PageGeometry geometry;
  /** [layer][page], like the GPU pool. */
  private final ByteBuffer memory;
  private final Ticker ticker;
  private final LatencyModel latency;
  private final int rank;
  private final String reason;
  /** The copy-engine thread, null until {@link #startCopyEngine}. Issuing thread only. */
  private SimulatedCopyEngine engine;

  /** Creates a zeroed pool of {@code capacityPages} pages on {@code rank}, timed by {@code ticker}. */
  public SimulatedDeviceTier(
      int capacityPages, int layers, int layerBytes, Ticker ticker, LatencyModel latency, int rank) {
    this(capacityPages, layers, layerBytes, ticker, latency, rank, "requested");
  }

  SimulatedDeviceTier(
      int capacityPages, int layers, int layerBytes, Ticker ticker, LatencyModel latency, int rank, String reason) {
    this.geometry = new PageGeometry(capacityPages, layers, layerBytes);
    this.memory = ByteBuffer.allocate(geometry.totalBytes());
    this.ticker = ticker;
    this.latency = latency;
    this.rank = rank;
    this.reason = reason;
  }

  @Override
  public int capacityPages() {
    return geometry.pages();
  }

  @Override
  public int layers() {
    return geometry.layers();
  }

  @Override
  public int layerBytes() {
    return geometry.layerBytes();
  }

  /** Offset of one layer of a device page; copies use absolute bulk puts, no view per layer. */
  private int layer(int page, int layer) {
    geometry.checkPage(page);
    return geometry.layerFirstOffset(page, layer);
  }

  @Override
  public void write(int page, ByteBuffer src) {
    Transfers.checkRoom(src, geometry.pageBytes());
    for (int l = 0; l < geometry.layers(); l++) {
      memory.put(layer(page, l), src, src.position(), geometry.layerBytes());
      src.position(src.position() + geometry.layerBytes());
    }
  }

  @Override
  public void read(int page, ByteBuffer dst) {
    Transfers.checkRoom(dst, geometry.pageBytes());
    for (int l = 0; l < geometry.layers(); l++) {
      dst.put(dst.position(), memory, layer(page, l), geometry.layerBytes());
      dst.position(dst.position() + geometry.layerBytes());
    }
  }

  @Override
  public TransferEvent copyToHost(int[] devicePages, HostPool host, int[] hostPages) {
    Transfers.check(geometry, devicePages, host, hostPages);
    int[] dev = devicePages.clone();
    int[] hst = hostPages.clone();
    return issue(TransferKind.DEVICE_TO_HOST, dev.length, () -> {
      for (int i = 0; i < dev.length; i++) {
        for (int l = 0; l < geometry.layers(); l++) {
          host.putLayer(hst[i], l, memory, layer(dev[i], l));
        }
      }
    });
  }

  @Override
  public TransferEvent copyFromHost(HostPool host, int[] hostPages, int[] devicePages) {
    Transfers.check(geometry, devicePages, host, hostPages);
    int[] dev = devicePages.clone();
    int[] hst = hostPages.clone();
    return issue(TransferKind.HOST_TO_DEVICE, dev.length, () -> {
      for (int i = 0; i < dev.length; i++) {
        for (int l = 0; l < geometry.layers(); l++) {
          host.getLayer(hst[i], l, memory, layer(dev[i], l));
        }
      }
    });
  }

  private TransferEvent issue(TransferKind kind, int pages, Runnable copy) {
    long ticks = latency.latencyTicks(kind, rank, pages);
    if (ticks < 0) {
      throw new IllegalStateException("latency model returned " + ticks + " ticks for " + kind);
    }
    long issuedAt = ticker.ticks();
    SimulatedCopy c = new SimulatedCopy(ticker, issuedAt + ticks, copy, kind + " of " + pages + " pages on rank " + rank);
    if (engine != null) {
      engine.submit(c);
    }
    return c;
  }

  /**
   * Starts this tier's copy-engine thread: from now on copies also complete on it, without being polled,
   * and {@code onComplete} runs there after each (a real asynchronous completion source, like CUDA events
   * on a copy stream). Call once, from the issuing thread, before the copies it should complete; {@link
   * #close()} stops it.
   *
   * @throws IllegalStateException if the engine runs already
   */
  public void startCopyEngine(java.util.function.Consumer<TransferEvent> onComplete) {
    if (engine != null) {
      throw new IllegalStateException("copy engine already started on rank " + rank);
    }
    engine = new SimulatedCopyEngine(ticker, onComplete, "copy-engine-rank-" + rank);
  }

  @Override
  public String describe() {
    return "simulated device (" + reason + "): rank " + rank + ", " + geometry.pages() + " pages x "
        + geometry.layers() + " layers x " + geometry.layerBytes() + " B";
  }

  @Override
  public void close() {
    if (engine != null) {
      engine.close();
    }
    // The pool's memory is released with the buffer by the garbage collector.
  }

  @Override
  public String toString() {
    return describe();
  }
}
