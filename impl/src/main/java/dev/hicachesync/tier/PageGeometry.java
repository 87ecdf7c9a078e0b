package dev.hicachesync.tier;

/**
 * The shape shared by a device and a host pool: {@code pages} pages of {@code layers} × {@code layerBytes}
 * bytes. Validates that the whole pool fits in one direct buffer. Public for device tiers built outside this
 * package (the JCuda tier, an engine's own).
 */
public record PageGeometry(int pages, int layers, int layerBytes) {

  /** @throws IllegalArgumentException if a dimension is below 1 or the pool exceeds one buffer */
  public PageGeometry {
    if (pages < 1 || layers < 1 || layerBytes < 1) {
      throw new IllegalArgumentException(
          "pages, layers and layerBytes must be >= 1, got " + pages + ", " + layers + ", " + layerBytes);
    }
    long total = (long) pages * layers * layerBytes;
    if (total > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("pool of " + total + " bytes exceeds one buffer (2 GiB)");
    }
  }

  /** Bytes of one page (every layer). */
  public int pageBytes() {
    return layers * layerBytes;
  }

  /** Bytes of the whole pool. */
  public int totalBytes() {
    return pages * pageBytes();
  }

  /** Byte offset of (page, layer) in a [layer][page] pool. */
  public int layerFirstOffset(int page, int layer) {
    return (layer * pages + page) * layerBytes;
  }

  /** Byte offset of (page, layer) in a [page][layer] pool. */
  public int pageFirstOffset(int page, int layer) {
    return page * pageBytes() + layer * layerBytes;
  }

  /** @throws IndexOutOfBoundsException if {@code page} is not a page of this pool */
  public void checkPage(int page) {
    if (page < 0 || page >= pages) {
      throw new IndexOutOfBoundsException("page " + page + " is outside [0, " + pages + ")");
    }
  }

  /** @throws IndexOutOfBoundsException if {@code layer} is not a layer of this pool */
  public void checkLayer(int layer) {
    if (layer < 0 || layer >= layers) {
      throw new IndexOutOfBoundsException("layer " + layer + " is outside [0, " + layers + ")");
    }
  }
}
