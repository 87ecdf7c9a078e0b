package dev.hicachesync.tier;

/**
 * The shape shared by a device and a host pool: {@code pages} pages of {@code layers} × {@code layerBytes}
 * bytes. Validates that the whole pool fits in one direct buffer.
 */
record PageGeometry(int pages, int layers, int layerBytes) {

  PageGeometry {
    if (pages < 1 || layers < 1 || layerBytes < 1) {
      throw new IllegalArgumentException(
          "pages, layers and layerBytes must be >= 1, got " + pages + ", " + layers + ", " + layerBytes);
    }
    long total = (long) pages * layers * layerBytes;
    if (total > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("pool of " + total + " bytes exceeds one buffer (2 GiB)");
    }
  }

  int pageBytes() {
    return layers * layerBytes;
  }

  int totalBytes() {
    return pages * pageBytes();
  }

  /** Byte offset of (page, layer) in a [layer][page] pool. */
  int layerFirstOffset(int page, int layer) {
    return (layer * pages + page) * layerBytes;
  }

  /** Byte offset of (page, layer) in a [page][layer] pool. */
  int pageFirstOffset(int page, int layer) {
    return page * pageBytes() + layer * layerBytes;
  }

  void checkPage(int page) {
    if (page < 0 || page >= pages) {
      throw new IndexOutOfBoundsException("page " + page + " is outside [0, " + pages + ")");
    }
  }

  void checkLayer(int layer) {
    if (layer < 0 || layer >= layers) {
      throw new IndexOutOfBoundsException("layer " + layer + " is outside [0, " + layers + ")");
    }
  }
}
