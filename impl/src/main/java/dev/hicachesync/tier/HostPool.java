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

  /** Copies page {@code page} in canonical order into {@code dst}, advancing its position by a page. */
  public void readPage(int page, ByteBuffer dst) {
    checkRoom(dst);
    geometry.checkPage(page);
    // Absolute bulk copies: no view object per layer, one copy per contiguous range (issue 13).
    int at = dst.position();
    if (layout == HostLayout.PAGE_FIRST) {
      dst.put(at, memory, geometry.pageFirstOffset(page, 0), geometry.pageBytes());
    } else {
      int lb = geometry.layerBytes();
      for (int l = 0; l < geometry.layers(); l++) {
        dst.put(at + l * lb, memory, geometry.layerFirstOffset(page, l), lb);
      }
    }
    dst.position(at + geometry.pageBytes());
  }

  /** Copies a page in canonical order from {@code src} into {@code page}, advancing its position. */
  public void writePage(int page, ByteBuffer src) {
    checkRoom(src);
    geometry.checkPage(page);
    int at = src.position();
    if (layout == HostLayout.PAGE_FIRST) {
      memory.put(geometry.pageFirstOffset(page, 0), src, at, geometry.pageBytes());
    } else {
      int lb = geometry.layerBytes();
      for (int l = 0; l < geometry.layers(); l++) {
        memory.put(geometry.layerFirstOffset(page, l), src, at + l * lb, lb);
      }
    }
    src.position(at + geometry.pageBytes());
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
