package dev.hicachesync.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class HostPoolTest {
  static final int PAGES = 6;
  static final int LAYERS = 3;
  static final int LAYER_BYTES = 16;

  /** A page whose every byte names (seed, layer, offset). */
  static ByteBuffer pattern(int seed, int layers, int layerBytes) {
    ByteBuffer b = ByteBuffer.allocate(layers * layerBytes);
    for (int l = 0; l < layers; l++) {
      for (int i = 0; i < layerBytes; i++) {
        b.put((byte) (seed * 31 + l * 7 + i));
      }
    }
    return b.flip();
  }

  @ParameterizedTest
  @EnumSource(HostLayout.class)
  void pagesRoundTripAndLayerViewsSeeTheirLayer(HostLayout layout) {
    HostPool pool = new HostPool(PAGES, LAYERS, LAYER_BYTES, layout);
    for (int p = 0; p < PAGES; p++) {
      pool.writePage(p, pattern(p, LAYERS, LAYER_BYTES));
    }
    for (int p = 0; p < PAGES; p++) {
      ByteBuffer out = ByteBuffer.allocate(pool.pageBytes());
      pool.readPage(p, out);
      assertEquals(pattern(p, LAYERS, LAYER_BYTES), out.flip(), layout + " page " + p);
      for (int l = 0; l < LAYERS; l++) {
        assertEquals(pattern(p, LAYERS, LAYER_BYTES).slice(l * LAYER_BYTES, LAYER_BYTES), pool.layerView(p, l));
      }
    }
  }

  @Test
  void sameLogicalDataCrossesBetweenLayouts() {
    HostPool layerFirst = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.LAYER_FIRST);
    HostPool pageFirst = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.PAGE_FIRST);
    HostPool back = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.LAYER_FIRST);
    ByteBuffer page = ByteBuffer.allocate(layerFirst.pageBytes());
    for (int p = 0; p < PAGES; p++) {
      layerFirst.writePage(p, pattern(p + 10, LAYERS, LAYER_BYTES));
      layerFirst.readPage(p, page.clear());
      pageFirst.writePage(PAGES - 1 - p, page.flip());
      pageFirst.readPage(PAGES - 1 - p, page.clear());
      back.writePage(p, page.flip());
    }
    for (int p = 0; p < PAGES; p++) {
      ByteBuffer out = ByteBuffer.allocate(back.pageBytes());
      back.readPage(p, out);
      assertEquals(pattern(p + 10, LAYERS, LAYER_BYTES), out.flip());
      assertEquals(pattern(p + 10, LAYERS, LAYER_BYTES), pageFirst.pageView(PAGES - 1 - p));
    }
  }

  @Test
  void pageFirstPagesAreContiguousAndLayerFirstPagesAreNot() {
    HostPool pool = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.PAGE_FIRST);
    assertTrue(pool.isPageContiguous());
    ByteBuffer view = pool.pageView(2);
    assertEquals(LAYERS * LAYER_BYTES, view.remaining());
    view.put(pattern(42, LAYERS, LAYER_BYTES)); // one contiguous write through the view (zero-copy I/O)
    for (int l = 0; l < LAYERS; l++) {
      assertEquals(pattern(42, LAYERS, LAYER_BYTES).slice(l * LAYER_BYTES, LAYER_BYTES), pool.layerView(2, l));
    }
    ByteBuffer other = ByteBuffer.allocate(pool.pageBytes());
    pool.readPage(3, other);
    assertEquals(ByteBuffer.allocate(pool.pageBytes()), other.flip(), "neighbouring page untouched");

    HostPool lf = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.LAYER_FIRST);
    assertFalse(lf.isPageContiguous());
    assertThrows(IllegalStateException.class, () -> lf.pageView(0));
  }

  @Test
  void rejectsBadGeometryAndShortBuffers() {
    assertThrows(IllegalArgumentException.class, () -> new HostPool(0, 1, 1, HostLayout.PAGE_FIRST));
    assertThrows(IllegalArgumentException.class, () -> new HostPool(1 << 20, 64, 1 << 12, HostLayout.PAGE_FIRST));
    HostPool pool = new HostPool(2, 2, 4, HostLayout.LAYER_FIRST);
    assertThrows(IllegalArgumentException.class, () -> pool.writePage(0, ByteBuffer.allocate(7)));
    assertThrows(IndexOutOfBoundsException.class, () -> pool.layerView(2, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> pool.layerView(0, 2));
    assertEquals(HostLayout.PAGE_FIRST, HostLayout.parse("page_first"));
    assertThrows(IllegalArgumentException.class, () -> HostLayout.parse("page_first_direct"));
    assertEquals(2, pool.allocator().capacity());
  }
}
