package dev.hicachesync.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The computed KV bytes: a function of the page's tokens that any change to a token or a byte breaks. */
class PageContentTest {

  @Test
  void contentIsAFunctionOfTheTokens() {
    int[] a = {1, 2, 3, 4, 9, 9, 9, 9};
    int[] b = {0, 1, 2, 3, 4};
    assertEquals(PageContent.seed(a, 0, 4), PageContent.seed(b, 1, 4), "same tokens, same page");
    assertNotEquals(PageContent.seed(a, 0, 4), PageContent.seed(a, 4, 4));
    assertNotEquals(PageContent.seed(new int[] {1, 2}, 0, 2), PageContent.seed(new int[] {2, 1}, 0, 2));
  }

  @Test
  void anyChangedWordIsFound() {
    long seed = PageContent.seed(new int[] {5, 6, 7}, 0, 3);
    ByteBuffer page = ByteBuffer.allocate(64);
    PageContent.fill(seed, page, 64);
    assertEquals(-1, PageContent.firstMismatch(seed, page, 64));
    assertEquals(0, PageContent.firstMismatch(seed + 1, page, 64), "another page's bytes");
    page.put(41, (byte) (page.get(41) ^ 1));
    assertEquals(40, PageContent.firstMismatch(seed, page, 64), "the word holding the flipped byte");
  }
}
