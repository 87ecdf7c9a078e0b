package dev.hicachesync.tier;

import java.nio.ByteBuffer;

/**
 * The host pool L2: off-heap page slots (the pinned-host analogue) in a {@link HostLayout}, with the
 * {@link PageAllocator} that hands its slots out.
 *
 * <p>Data access ({@code readPage}, {@code writePage}, views) is safe from any thread as long as two
 * threads never touch the same page at once, which INV-7 (HostSlotSafety) guarantees for the protocol;
 * views share the pool's memory, which the garbage collector frees with the pool.
 */
public final class HostPool {
  private final PageGeometry geometry;
  private final HostLayout layout;
  private final ByteBuffer memory;
  private final PageAllocator allocator;

  /** Creates a pool of {@code capacityPages} pages of {@code layers} × {@code layerBytes} bytes, zeroed. */
  public HostPool(int capacityPages, int layers, int layerBytes, HostLayout layout) {
    this.geometry = new PageGeometry(capacityPages, layers, layerBytes);
    this.layout = layout;
    this.memory = ByteBuffer.allocateDirect(geometry.totalBytes());
    this.allocator = new PageAllocator(capacityPages);
  }

  /** Returns the number of page slots. */
  public int capacityPages() {
    return geometry.pages();
  }

  /** Returns the number of layers per page. */
  public int layers() {
    return geometry.layers();
  }

  /** Returns the bytes of one layer of one page. */
  public int layerBytes() {
    return geometry.layerBytes();
  }

  /** Returns the bytes of one page (all layers). */
  public int pageBytes() {
    return geometry.pageBytes();
  }

  /** Returns the physical layout. */
  public HostLayout layout() {
    return layout;
  }

  /** Returns the allocator of this pool's slots (see its thread contract). */
  public PageAllocator allocator() {
    return allocator;
  }

  /** Returns a view of one layer of one page: position 0, limit {@link #layerBytes()}. */
  public ByteBuffer layerView(int page, int layer) {
    geometry.checkPage(page);
    geometry.checkLayer(layer);
    int offset = layout == HostLayout.PAGE_FIRST
        ? geometry.pageFirstOffset(page, layer)
        : geometry.layerFirstOffset(page, layer);
    return memory.slice(offset, geometry.layerBytes());
  }

  /**
   * Returns a view of the pool's whole memory in its layout's order (position 0, limit all pages), sharing
   * the pool's bytes. For measurements that must copy the very bytes a page copy copies, at the same
   * addresses: the same copies into two different buffers of the same size measured up to 10 % apart
   * (docs/explanation/concurrency.md).
   */
  public ByteBuffer poolView() {
    return memory.duplicate().clear();
  }

  /** Returns whether a page's bytes are one contiguous range ({@link HostLayout#PAGE_FIRST}). */
  public boolean isPageContiguous() {
    return layout == HostLayout.PAGE_FIRST;
  }

  /**
   * Returns a view of a whole page in canonical order (zero-copy storage I/O).
   *
   * @throws IllegalStateException for {@link HostLayout#LAYER_FIRST}, whose pages are not contiguous
   */
  public ByteBuffer pageView(int page) {
    if (layout != HostLayout.PAGE_FIRST) {
      throw new IllegalStateException("pageView needs page_first; this pool is " + layout.label());
    }
    geometry.checkPage(page);
    return memory.slice(geometry.pageFirstOffset(page, 0), geometry.pageBytes());
  }

  /**
   * Returns where page {@code page} starts in {@link #poolView()}: its bytes are the {@link #pageBytes()} from
   * there, in canonical order. For checks that read a page in place with absolute reads (no view per page).
   *
   * @throws IllegalStateException for {@link HostLayout#LAYER_FIRST}, whose pages are not contiguous
   */
  public int pageOffset(int page) {
    if (layout != HostLayout.PAGE_FIRST) {
      throw new IllegalStateException("pageOffset needs page_first; this pool is " + layout.label());
    }
    geometry.checkPage(page);
    return geometry.pageFirstOffset(page, 0);
  }

  /** Copies page {@code page} in canonical order into {@code dst}, advancing its position by a page. */
  public void readPage(int page, ByteBuffer dst) {
    if (layout == HostLayout.LAYER_FIRST) {
      readLayerFirst(page, dst);
      return;
    }
    checkRoom(dst);
    geometry.checkPage(page);
    // Absolute bulk copies: no view object per layer, one copy per contiguous range.
    int at = dst.position();
    dst.put(at, memory, geometry.pageFirstOffset(page, 0), geometry.pageBytes());
    dst.position(at + geometry.pageBytes());
  }

  /** Copies a page in canonical order from {@code src} into {@code page}, advancing its position. */
  public void writePage(int page, ByteBuffer src) {
    if (layout == HostLayout.LAYER_FIRST) {
      writeLayerFirst(page, src);
      return;
    }
    checkRoom(src);
    geometry.checkPage(page);
    int at = src.position();
    memory.put(geometry.pageFirstOffset(page, 0), src, at, geometry.pageBytes());
    src.position(at + geometry.pageBytes());
  }

  /*
   * The layer_first page copies: one bulk copy per layer, {@code stride} (a whole layer of every page) apart,
   * two layers per turn of the loop, the layout chosen before anything else and every size read once into a
   * local. Why this shape, measured with a scratch probe (100-150 interleaved trials of 20,000
   * pages of 8 x 512 bytes each, under chrt -f 1 on 2 cores, 1 Dec 2026; docs/explanation/concurrency.md), as speed against eight bulk puts with constant offsets into the same
   * buffer:
   * - the fields in locals: a bulk copy is a call the JIT must assume writes any memory, so a field read in
   *   the loop (the pool's buffer, the geometry's sizes) was read again after each copy, and with it the
   *   buffer fields its bounds checks use: 87-93 % against 80-86 % for the loop as it was (stepping the
   *   offsets with the fields still read in the loop measured no better: the arithmetic was never the cost);
   * - two copies per turn: the JIT does not unroll a loop that calls, so each copy paid a turn of the loop:
   *   95-101 % against 87-93 % one per turn (four per turn measured no better);
   * - the layout tested first and the checks on locals: the same loop behind the shared checks and the
   *   layout branch measured 83-85 %, this shape 89-94 % in the same runs.
   * The failure paths call the shared checks, so the errors and their texts are those of page_first.
   */

  private void readLayerFirst(int page, ByteBuffer dst) {
    final ByteBuffer mem = memory;
    final int lb = geometry.layerBytes();
    final int layers = geometry.layers();
    final int pages = geometry.pages();
    final int pageBytes = layers * lb;
    if (dst.remaining() < pageBytes || page < 0 || page >= pages) {
      checkRoom(dst);
      geometry.checkPage(page);
    }
    final int at = dst.position();
    final int stride = pages * lb;
    int from = page * lb;
    int to = at;
    int l = 0;
    for (; l + 1 < layers; l += 2) {
      dst.put(to, mem, from, lb);
      dst.put(to + lb, mem, from + stride, lb);
      from += 2 * stride;
      to += 2 * lb;
    }
    if (l < layers) { // an odd number of layers: the last one
      dst.put(to, mem, from, lb);
    }
    dst.position(at + pageBytes);
  }

  private void writeLayerFirst(int page, ByteBuffer src) {
    final ByteBuffer mem = memory;
    final int lb = geometry.layerBytes();
    final int layers = geometry.layers();
    final int pages = geometry.pages();
    final int pageBytes = layers * lb;
    if (src.remaining() < pageBytes || page < 0 || page >= pages) {
      checkRoom(src);
      geometry.checkPage(page);
    }
    final int at = src.position();
    final int stride = pages * lb;
    int to = page * lb;
    int from = at;
    int l = 0;
    for (; l + 1 < layers; l += 2) {
      mem.put(to, src, from, lb);
      mem.put(to + stride, src, from + lb, lb);
      to += 2 * stride;
      from += 2 * lb;
    }
    if (l < layers) { // an odd number of layers: the last one
      mem.put(to, src, from, lb);
    }
    src.position(at + pageBytes);
  }

  /** Copies {@code layerBytes} of {@code src} from absolute {@code srcOffset} into one layer of a page. */
  void putLayer(int page, int layer, ByteBuffer src, int srcOffset) {
    memory.put(layerOffset(page, layer), src, srcOffset, geometry.layerBytes()); // absolute: no view object
  }

  /** Copies one layer of a page into {@code dst} at absolute {@code dstOffset}. */
  void getLayer(int page, int layer, ByteBuffer dst, int dstOffset) {
    dst.put(dstOffset, memory, layerOffset(page, layer), geometry.layerBytes());
  }

  private int layerOffset(int page, int layer) {
    geometry.checkPage(page);
    geometry.checkLayer(layer);
    return layout == HostLayout.PAGE_FIRST
        ? geometry.pageFirstOffset(page, layer)
        : geometry.layerFirstOffset(page, layer);
  }

  private void checkRoom(ByteBuffer b) {
    if (b.remaining() < geometry.pageBytes()) {
      throw new IllegalArgumentException(
          "buffer has " + b.remaining() + " bytes left, a page needs " + geometry.pageBytes());
    }
  }

  /** Returns e.g. {@code host page_first 1024 pages x 4 layers x 4096 B}. */
  public String describe() {
    return "host " + layout.label() + " " + geometry.pages() + " pages x " + geometry.layers() + " layers x "
        + geometry.layerBytes() + " B";
  }

  @Override
  public String toString() {
    return describe();
  }
}
