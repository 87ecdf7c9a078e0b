package dev.hicachesync.tier;

import dev.hicachesync.env.TransferEvent;
import java.nio.ByteBuffer;

/**
 * The device pool L1: {@link #capacityPages()} pages in the GPU's [layer][page] layout and an
 * asynchronous copy engine to and from a {@link HostPool}.
 *
 * <h2>The contract (every implementation; the controller relies on nothing else)</h2>
 * <ol>
 *   <li><b>Issue.</b> {@link #copyToHost} and {@link #copyFromHost} are called from one thread at a time
 *       (the scheduler's), return at once and never wait for earlier copies.
 *   <li><b>Completion.</b> Each copy completes on its own {@link TransferEvent}; events may complete in any
 *       order (not necessarily issue order) and may be polled or awaited from any thread. Once an event is
 *       observed done, the destination pages hold what the source pages held.
 *   <li><b>In flight.</b> Between issue and completion the source is read and the destination written at
 *       instants the implementation chooses. The caller must neither modify the source nor read or modify
 *       the destination until the event is done (INV-7, {@code HostSlotSafety}); if it does, each layer of
 *       each destination page holds either the old or the new source bytes, which of them is unspecified.
 *       So misuse is not reliably visible in the data: the host-slot ledger, which refuses to free a slot
 *       a transfer still uses, is what detects it. The simulated tier reads the source at completion (the
 *       latest instant, so that a reuse does show up in its data checks); the JCuda tier stages a
 *       host → device source at issue (the earliest).
 *   <li><b>Synchronous access.</b> {@link #read} and {@link #write} are synchronous for the one page they
 *       touch and do not wait for, or complete, copies in flight on other pages: an in-flight copy stays
 *       asynchronous. They are meant for tests and data checks; on a page with a copy in flight their
 *       result is unspecified (rule 3).
 * </ol>
 * {@code DeviceTierContractTest} checks these rules on both tiers (the JCuda one skipped without CUDA).
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
