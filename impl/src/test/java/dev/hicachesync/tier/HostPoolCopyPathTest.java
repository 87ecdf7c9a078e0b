package dev.hicachesync.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The page copies of both layouts against a byte-by-byte model (the {@code layer_first} loop copies
 * two layers per turn with offsets stepped in locals, plus a last layer when the count is odd). Random
 * geometries (1 to 7 layers, so odd and even counts and a single layer), random pages, buffers of either kind
 * with the page at a random position: a written page must land layer by layer exactly where
 * {@link HostPool#layerView} says, leave every other byte of the pool as it was, read back equal, and move the
 * buffer's position by one page and nothing else.
 */
class HostPoolCopyPathTest {

  @Test
  void pageCopiesMatchALayerByLayerModel() {
    qt().withFixedSeed(1313L).withExamples(200).forAll(longs().all()).checkAssert(seed -> {
      Random rnd = new Random(seed);
      int pages = 1 + rnd.nextInt(6);
      int layers = 1 + rnd.nextInt(7);
      int layerBytes = 1 + rnd.nextInt(24);
      HostLayout layout = rnd.nextBoolean() ? HostLayout.LAYER_FIRST : HostLayout.PAGE_FIRST;
      HostPool pool = new HostPool(pages, layers, layerBytes, layout);
      String where = "seed " + seed + ": " + pool.describe();
      byte[][][] model = new byte[pages][layers][layerBytes]; // what every layer of every page must hold

      for (int op = 0; op < 12; op++) {
        int page = rnd.nextInt(pages);
        int lead = rnd.nextInt(5); // bytes before the page in the buffer
        ByteBuffer src = buffer(rnd, lead + pool.pageBytes() + rnd.nextInt(5));
        byte[] bytes = new byte[pool.pageBytes()];
        rnd.nextBytes(bytes);
        src.put(lead, bytes).position(lead);
        int limit = src.limit();
        pool.writePage(page, src);
        assertEquals(lead + pool.pageBytes(), src.position(), where + ": write moves the position by a page");
        assertEquals(limit, src.limit(), where);
        for (int l = 0; l < layers; l++) {
          System.arraycopy(bytes, l * layerBytes, model[page][l], 0, layerBytes);
        }
        assertPoolHolds(pool, model, where + " after writing page " + page);

        int readAt = rnd.nextInt(5);
        ByteBuffer dst = buffer(rnd, readAt + pool.pageBytes() + rnd.nextInt(5));
        dst.position(readAt);
        int other = rnd.nextInt(pages);
        pool.readPage(other, dst);
        assertEquals(readAt + pool.pageBytes(), dst.position(), where + ": read moves the position by a page");
        for (int l = 0; l < layers; l++) {
          for (int i = 0; i < layerBytes; i++) {
            assertEquals(model[other][l][i], dst.get(readAt + l * layerBytes + i),
                where + ": read of page " + other + " layer " + l + " byte " + i);
          }
        }
        for (int i = 0; i < readAt; i++) {
          assertEquals(0, dst.get(i), where + ": read wrote before the buffer's position");
        }
        for (int i = readAt + pool.pageBytes(); i < dst.capacity(); i++) {
          assertEquals(0, dst.get(i), where + ": read wrote past the page");
        }
      }
    });
  }

  @Test
  void badPagesAndShortBuffersFailAlikeInBothLayoutsAndCopyNothing() {
    for (HostLayout layout : HostLayout.values()) {
      HostPool pool = new HostPool(3, 2, 8, layout);
      for (int page : new int[] {-1, 3, 4}) {
        ByteBuffer src = ByteBuffer.allocate(pool.pageBytes());
        src.put(0, (byte) 7);
        IndexOutOfBoundsException w = assertThrows(IndexOutOfBoundsException.class, () -> pool.writePage(page, src));
        assertEquals("page " + page + " is outside [0, 3)", w.getMessage(), layout.label());
        IndexOutOfBoundsException r = assertThrows(IndexOutOfBoundsException.class,
            () -> pool.readPage(page, ByteBuffer.allocate(pool.pageBytes())));
        assertEquals("page " + page + " is outside [0, 3)", r.getMessage(), layout.label());
        assertEquals(0, src.position(), layout.label());
      }
      ByteBuffer shortSrc = ByteBuffer.allocate(pool.pageBytes() - 1);
      shortSrc.put(0, (byte) 7);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pool.writePage(1, shortSrc));
      assertEquals("buffer has 15 bytes left, a page needs 16", e.getMessage(), layout.label());
      e = assertThrows(IllegalArgumentException.class,
          () -> pool.readPage(1, ByteBuffer.allocate(pool.pageBytes()).position(1)));
      assertEquals("buffer has 15 bytes left, a page needs 16", e.getMessage(), layout.label());
      ByteBuffer all = pool.poolView();
      for (int i = 0; i < all.limit(); i++) {
        assertEquals(0, all.get(i), layout.label() + ": a failed copy wrote byte " + i);
      }
    }
  }

  @Test
  void poolViewSharesThePoolsBytesInItsLayoutsOrderWithAPositionOfItsOwn() {
    for (HostLayout layout : HostLayout.values()) {
      HostPool pool = new HostPool(4, 3, 8, layout);
      ByteBuffer page = ByteBuffer.allocate(pool.pageBytes());
      for (int i = 0; i < page.capacity(); i++) {
        page.put(i, (byte) (i + 1));
      }
      pool.writePage(2, page);
      ByteBuffer view = pool.poolView();
      assertEquals(0, view.position(), layout.label());
      assertEquals(4 * pool.pageBytes(), view.limit(), layout.label());
      for (int l = 0; l < 3; l++) {
        int at = layout == HostLayout.PAGE_FIRST ? 2 * pool.pageBytes() + l * 8 : (l * 4 + 2) * 8;
        for (int i = 0; i < 8; i++) {
          assertEquals((byte) (l * 8 + i + 1), view.get(at + i), layout.label() + " layer " + l + " byte " + i);
        }
      }
      view.position(5).limit(9).put(5, (byte) 99); // moving the view's bounds must not move the pool's
      assertEquals(0, pool.poolView().position(), layout.label());
      assertEquals(4 * pool.pageBytes(), pool.poolView().limit(), layout.label());
      assertEquals(99, pool.poolView().get(5), layout.label() + ": the view writes through");
    }
  }

  /** Every layer of every page, read through its own view (the layout's offsets), equals the model. */
  private static void assertPoolHolds(HostPool pool, byte[][][] model, String where) {
    for (int p = 0; p < model.length; p++) {
      for (int l = 0; l < model[p].length; l++) {
        ByteBuffer view = pool.layerView(p, l);
        for (int i = 0; i < model[p][l].length; i++) {
          assertEquals(model[p][l][i], view.get(i), where + ": page " + p + " layer " + l + " byte " + i);
        }
      }
    }
  }

  private static ByteBuffer buffer(Random rnd, int capacity) {
    return rnd.nextBoolean() ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
  }
}
