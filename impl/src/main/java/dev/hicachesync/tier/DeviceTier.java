package dev.hicachesync.tier;

import dev.hicachesync.env.TransferEvent;
import java.nio.ByteBuffer;

/**
 * The device pool L1: {@link #capacityPages()} pages in the GPU's [layer][page] layout and an
 * asynchronous copy engine to and from a {@link HostPool}.
 *
 * <p>Copies are issued by the scheduler thread (SGLang's write-through and load-back paths) and complete
 * on their {@link TransferEvent}; the destination holds the data once the event is done, not before. The
 * caller must leave the source and destination pages alone until then (INV-7). {@link #read} and {@link
 * #write} are synchronous and meant for tests and data checks. Implementations are not required to support
 * concurrent issuing threads.
 */
public interface DeviceTier extends AutoCloseable {

  /** Returns the number of device pages. */
  int capacityPages();

  /** Returns the number of layers per page. */
  int layers();

  /** Returns the bytes of one layer of one page. */
  int layerBytes();

  /** Returns the bytes of one page (all layers). */
  default int pageBytes() {
    return layers() * layerBytes();
  }

  /** Writes one page in canonical order from {@code src} (advancing its position); synchronous. */
  void write(int page, ByteBuffer src);

  /** Reads one page in canonical order into {@code dst} (advancing its position); synchronous. */
  void read(int page, ByteBuffer dst);

  /**
   * Starts copying {@code devicePages[i]} to {@code hostPages[i]} of {@code host} (write-through / backup).
   * Scheduler thread.
   */
  TransferEvent copyToHost(int[] devicePages, HostPool host, int[] hostPages);

  /** Starts copying {@code hostPages[i]} of {@code host} to {@code devicePages[i]} (load-back). Scheduler thread. */
  TransferEvent copyFromHost(HostPool host, int[] hostPages, int[] devicePages);

  /** Returns which implementation this is and on what, e.g. {@code simulated (no CUDA: ...)}. */
  String describe();

  /** Releases the device memory; pending copies must have completed. */
  @Override
  void close();
}
